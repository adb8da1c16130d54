<?php
/**
 * Roles and capabilities (0.6.0): WordPress's REST API has no routes for them (wp-admin has no
 * screen either; WP-CLI's `wp role` and `wp cap` write the option directly).
 *
 *   GET    cms-admin/v1/roles/{slug}                   the role: capabilities (denied ones false), users   list_users
 *   PUT    cms-admin/v1/roles/{slug}   {name, capabilities, create, check}  creates it (only, with create) or sets exactly these  promote_users
 *   DELETE cms-admin/v1/roles/{slug}   {move_users_to, force, check}  its users get move_users_to first     promote_users
 *   GET    cms-admin/v1/users/{id}/capabilities        the account's own grants and denials         edit_user
 *   PUT    cms-admin/v1/users/{id}/capabilities  {capabilities, check}  sets exactly these           promote_user
 *   GET    cms-admin/v1/capabilities/{cap}/users       who holds it, through which role or grant    list_users
 *
 * The rules hold here, whoever calls (0.7.0, #58: judged from capability maps, capability-maps.php):
 * no role's slug is a capability's name; nobody grants, denies or drops an entry for a capability
 * they do not hold, or changes a role stronger than their own or one a stronger account holds
 * (role-effects.php: every holder's map before and after); no account changes its own
 * capabilities; the last account with manage_options never loses it, denials included (checked
 * and written under the administrators' lock); the five default roles go only with `force`,
 * administrator never. `check`: judged, nothing written (the toolkit's review asks so). On a
 * network each site has its roles (the route of that site's URL); a super admin holds every
 * capability there.
 */

if (!defined('ABSPATH')) {
    exit;
}

const CMS_ADMIN_DEFAULT_ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];

add_action('rest_api_init', static function (): void {
    $ns = CMS_ADMIN_COMPANION_NAMESPACE;
    $slug = '(?P<slug>[A-Za-z0-9_-]+)';
    $caps = ['type' => 'object', 'additionalProperties' => ['type' => 'boolean']];
    $check = ['type' => 'boolean', 'default' => false];
    register_rest_route($ns, "/roles/$slug", [
        ['methods' => WP_REST_Server::READABLE, 'callback' => 'cms_admin_role_get', 'permission_callback' => static fn () => current_user_can('list_users')],
        [
            'methods' => 'PUT',
            'callback' => 'cms_admin_role_put',
            'permission_callback' => 'cms_admin_can_edit_roles',
            'args' => ['name' => ['type' => 'string', 'maxLength' => 200], 'capabilities' => $caps + ['required' => true], 'create' => ['type' => 'boolean', 'default' => false], 'check' => $check],
        ],
        [
            'methods' => WP_REST_Server::DELETABLE,
            'callback' => 'cms_admin_role_delete',
            'permission_callback' => 'cms_admin_can_edit_roles',
            'args' => ['move_users_to' => ['type' => 'string', 'default' => ''], 'force' => ['type' => 'boolean', 'default' => false], 'check' => $check],
        ],
    ]);
    register_rest_route($ns, '/users/(?P<id>\d+)/capabilities', [
        ['methods' => WP_REST_Server::READABLE, 'callback' => 'cms_admin_user_caps_get', 'permission_callback' => static fn ($r) => current_user_can('edit_user', (int) $r['id'])],
        [
            'methods' => 'PUT',
            'callback' => 'cms_admin_user_caps_put',
            'permission_callback' => static fn ($r) => current_user_can('promote_user', (int) $r['id']) || current_user_can('list_users'),
            'args' => ['capabilities' => $caps + ['required' => true], 'check' => $check],
        ],
    ]);
    register_rest_route($ns, '/capabilities/(?P<cap>[A-Za-z0-9_-]+)/users', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_capability_users',
        'permission_callback' => static fn () => current_user_can('list_users'),
        'args' => ['per_page' => ['type' => 'integer', 'minimum' => 1, 'maximum' => 500, 'default' => 200]],
    ]);
});

/** Editing roles hands out capabilities: the account must be able to give roles (promote_users). */
function cms_admin_can_edit_roles(): bool
{
    return current_user_can('promote_users');
}

function cms_admin_roles_error(string $code, string $message, int $status, array $data = []): WP_Error
{
    return new WP_Error($code, $message, ['status' => $status] + $data);
}

/** The role as the routes answer it; null when there is none. */
function cms_admin_role_record(string $slug): ?array
{
    $role = wp_roles()->roles[$slug] ?? null;
    if (!$role) {
        return null;
    }
    $caps = array_map('boolval', (array) ($role['capabilities'] ?? []));
    ksort($caps);
    $users = array_map('intval', get_users(['role' => $slug, 'fields' => 'ID', 'number' => -1, 'orderby' => 'ID']));
    return ['role' => $slug, 'name' => (string) $role['name'], 'capabilities' => (object) $caps, 'users' => $users, 'users_count' => count($users)];
}

function cms_admin_role_get(WP_REST_Request $request)
{
    return cms_admin_role_record((string) $request['slug'])
        ?? cms_admin_roles_error('cms_admin_unknown_role', sprintf(__('There is no role %s on this site.', 'cms-admin-companion'), $request['slug']), 404);
}

/** Keys that are capabilities (a role's slug is one only when it is a capability's name), values true or false. */
function cms_admin_clean_caps($caps)
{
    $out = [];
    foreach ((array) $caps as $cap => $granted) {
        $cap = (string) $cap;
        if (!preg_match('/^[A-Za-z0-9_-]{1,100}$/', $cap) || !cms_admin_is_capability($cap)) {
            return cms_admin_roles_error('cms_admin_invalid_capability', sprintf(__('"%s" is not a capability name.', 'cms-admin-companion'), $cap), 400);
        }
        $out[$cap] = (bool) $granted;
    }
    ksort($out);
    return $out;
}

/**
 * Capabilities `$caps` grants that the caller does not hold, neither granted to it (its roles
 * and own entries) nor allowed by current_user_can(). A capability the site takes from everyone
 * now (DISALLOW_FILE_MODS maps install_plugins to do_not_allow) still counts: a role given it
 * today would have it the day the constant goes.
 */
function cms_admin_caps_beyond_caller(array $caps): array
{
    if (is_multisite() && is_super_admin()) {
        return [];
    }
    $held = wp_get_current_user()->allcaps;
    $beyond = [];
    foreach ($caps as $cap => $granted) {
        if ($granted && cms_admin_is_capability((string) $cap) && !cms_admin_never_beyond((string) $cap) && empty($held[$cap]) && !current_user_can($cap)) {
            $beyond[] = (string) $cap;
        }
    }
    return cms_admin_power_first($beyond);
}

function cms_admin_refuse_beyond(array $beyond, string $what): ?WP_Error
{
    if (!$beyond) {
        return null;
    }
    return cms_admin_roles_error(
        'cms_admin_capability_beyond_caller',
        sprintf(
            /* translators: 1: what, 2: capability list */
            __('You cannot %1$s: it gives or takes away capabilities your account does not hold (%2$s); nobody gives or takes more than they have.', 'cms-admin-companion'),
            $what,
            implode(', ', array_slice($beyond, 0, 5)) . (count($beyond) > 5 ? ', …' : '')
        ),
        403,
        ['capabilities' => array_slice($beyond, 0, 20)]
    );
}

/**
 * Whether `$user` would hold manage_options with role `$slug` made `$new` (null: deleted, its
 * holders moved to `$move_to`) and the account's own capabilities `$own` (null: as they are).
 * As WP_User::get_role_caps(): roles merged in order, then the account's entries over them, so a
 * denial counts (cms_admin_effective_caps, capability-maps.php).
 */
function cms_admin_would_manage(WP_User $user, string $slug, ?array $new, string $move_to = '', ?array $own = null): bool
{
    if (is_multisite() && is_super_admin($user->ID)) {
        return true;
    }
    $entries = (array) $user->caps;
    if (null !== $own) {
        $entries = array_filter($entries, static fn ($key) => wp_roles()->is_role((string) $key), ARRAY_FILTER_USE_KEY) + $own;
    }
    if ('' !== $slug && null === $new) {
        $entries = cms_admin_entries_without_role($entries, $slug, $move_to);
    }
    $roles = '' !== $slug && null !== $new ? [$slug => $new] : [];
    return !empty(cms_admin_effective_caps($user, $roles, $entries)['manage_options']);
}

/** A 409 when no enabled account would keep manage_options after the change `$keeps` describes. */
function cms_admin_refuse_last_manager(callable $keeps): ?WP_Error
{
    // On a network the super admins hold manage_options on every site, and no role change
    // touches who they are: the network is never left without one.
    if (is_multisite() && get_super_admins()) {
        return null;
    }
    $admins = cms_admin_enabled_administrators();
    foreach ($admins as $id) {
        $user = get_userdata($id);
        if ($user && $keeps($user)) {
            return null;
        }
    }
    if (!$admins) {
        return null; // nobody has it now (a network's super admins manage it): nothing to keep
    }
    return cms_admin_roles_error(
        'cms_admin_last_administrator',
        __('This would leave no enabled account with manage_options (the last administrator); nothing was changed.', 'cms-admin-companion'),
        409
    );
}

function cms_admin_role_put(WP_REST_Request $request)
{
    $slug = (string) $request['slug'];
    if ($slug !== sanitize_key($slug)) {
        return cms_admin_roles_error('cms_admin_invalid_role', __('A role slug is lower case letters, digits, _ and -.', 'cms-admin-companion'), 400);
    }
    $caps = cms_admin_clean_caps($request['capabilities']);
    if (is_wp_error($caps)) {
        return $caps;
    }
    return cms_admin_with_administrators_lock(static function () use ($slug, $caps, $request) {
        $existing = get_role($slug);
        if ($existing && $request['create']) {
            return cms_admin_roles_error('cms_admin_role_exists', sprintf(__('The role %s already exists.', 'cms-admin-companion'), $slug), 409);
        }
        $old = $existing ? array_map('boolval', $existing->capabilities) : null;
        // A stronger role is not changed by a weaker account (its holders are stronger accounts);
        // every entry set, flipped or dropped — denials too — is one the caller holds; then what
        // the change does to each holder, and the last manager (denials included).
        $refused = ($old ? null : cms_admin_refuse_capability_slug($slug))
            ?? ($old ? cms_admin_refuse_beyond(cms_admin_caps_beyond_caller(cms_admin_role_grants($slug, $old)), "change the role $slug") : null)
            ?? cms_admin_refuse_beyond(cms_admin_entries_beyond_caller($old ?? [], $caps), $old ? "set these entries of the role $slug" : "create the role $slug")
            ?? ($old ? cms_admin_refuse_role_effects($slug, $caps) : null)
            ?? ($old ? cms_admin_refuse_last_manager(static fn (WP_User $u) => cms_admin_would_manage($u, $slug, $caps)) : null);
        if ($refused || $request['check']) {
            return $refused ?? ['role' => $slug, 'checked' => true];
        }
        $name = sanitize_text_field((string) ($request['name'] ?? ''));
        if (!$existing) {
            if ('' === $name) {
                return cms_admin_roles_error('cms_admin_invalid_role', __('A new role needs a name.', 'cms-admin-companion'), 400);
            }
            add_role($slug, $name, $caps);
        } else {
            // wp_roles() keeps roles in one option: set the whole entry at once.
            $roles = wp_roles();
            $roles->roles[$slug] = ['name' => '' !== $name ? $name : $roles->roles[$slug]['name'], 'capabilities' => $caps];
            update_option($roles->role_key, $roles->roles);
            $roles->for_site();
        }
        return cms_admin_role_record($slug) + ['created' => !$existing];
    });
}

function cms_admin_role_delete(WP_REST_Request $request)
{
    $slug = (string) $request['slug'];
    $record = cms_admin_role_record($slug);
    if (!$record) {
        return cms_admin_roles_error('cms_admin_unknown_role', sprintf(__('There is no role %s on this site.', 'cms-admin-companion'), $slug), 404);
    }
    if ('administrator' === $slug || (in_array($slug, CMS_ADMIN_DEFAULT_ROLES, true) && !$request['force'])) {
        return cms_admin_roles_error('cms_admin_default_role', sprintf(__('%s is one of WordPress\'s default roles: administrator is never deleted, the others only with force.', 'cms-admin-companion'), $slug), 400);
    }
    if ((string) get_option('default_role') === $slug) {
        return cms_admin_roles_error('cms_admin_default_role', sprintf(__('%s is the role new accounts get (Settings → General); choose another default first.', 'cms-admin-companion'), $slug), 409);
    }
    $move = (string) $request['move_users_to'];
    if ($record['users_count'] && '' === $move) {
        return cms_admin_roles_error('cms_admin_role_has_users', sprintf(__('%1$d account(s) have the role %2$s: say which role they get instead (move_users_to).', 'cms-admin-companion'), $record['users_count'], $slug), 409, ['users_count' => $record['users_count']]);
    }
    if ('' !== $move && ($move === $slug || !get_role($move))) {
        return cms_admin_roles_error('cms_admin_unknown_role', sprintf(__('There is no role %s on this site to move the accounts to.', 'cms-admin-companion'), $move), 400);
    }
    return cms_admin_with_administrators_lock(static function () use ($slug, $move, $record, $request) {
        $old = (array) $record['capabilities'];
        $refused = cms_admin_refuse_beyond(cms_admin_caps_beyond_caller(cms_admin_role_grants($slug, $old)), "delete the role $slug")
            ?? ('' !== $move && $record['users_count'] ? cms_admin_refuse_beyond(cms_admin_role_beyond_caller($move), "give the role $move") : null)
            ?? cms_admin_refuse_beyond(cms_admin_entries_beyond_caller($old, []), "delete the role $slug")
            ?? cms_admin_refuse_role_effects($slug, null, $move)
            ?? cms_admin_refuse_last_manager(static fn (WP_User $u) => cms_admin_would_manage($u, $slug, null, $move));
        if ($refused || $request['check']) {
            return $refused ?? ['role' => $slug, 'checked' => true];
        }
        foreach ($record['users'] as $id) {
            $user = get_userdata($id);
            if (!$user) {
                continue;
            }
            // add first: an account is never left without a role midway.
            if ('' !== $move) {
                $user->add_role($move);
            }
            $user->remove_role($slug);
        }
        remove_role($slug);
        return $record + ['deleted' => true, 'moved_to' => $move];
    });
}

/** The account's own entries: capabilities granted (true) or denied (false) to it, roles left out. */
function cms_admin_user_own_caps(WP_User $user): array
{
    $own = [];
    foreach ($user->caps as $cap => $granted) {
        if (!wp_roles()->is_role((string) $cap)) {
            $own[(string) $cap] = (bool) $granted;
        }
    }
    ksort($own);
    return $own;
}

function cms_admin_user_caps_answer(WP_User $user): array
{
    return ['id' => $user->ID, 'username' => $user->user_login, 'roles' => array_values($user->roles), 'capabilities' => (object) cms_admin_user_own_caps($user)];
}

function cms_admin_user_caps_get(WP_REST_Request $request)
{
    $user = cms_admin_rest_user($request);
    return is_wp_error($user) ? $user : cms_admin_user_caps_answer($user);
}

function cms_admin_user_caps_put(WP_REST_Request $request)
{
    $user = cms_admin_rest_user($request);
    if (is_wp_error($user)) {
        return $user;
    }
    $caps = cms_admin_clean_caps($request['capabilities']);
    if (is_wp_error($caps)) {
        return $caps;
    }
    if (get_current_user_id() === $user->ID) {
        return cms_admin_roles_error('cms_admin_cannot_change_own_capabilities', __('An account cannot change its own capabilities; ask another administrator.', 'cms-admin-companion'), 403);
    }
    if (!current_user_can('promote_user', $user->ID)) {
        return cms_admin_refuse_stronger_account($user, 'change the capabilities of')
            ?? cms_admin_roles_error('rest_forbidden', __('Sorry, you are not allowed to change this account\'s capabilities.', 'cms-admin-companion'), 403);
    }
    return cms_admin_with_administrators_lock(static function () use ($user, $caps, $request) {
        $old = cms_admin_user_own_caps($user);
        // Grants and denials alike: an entry the caller does not hold is not theirs to set or drop (#58).
        $refused = cms_admin_refuse_stronger_account($user, 'change the capabilities of')
            ?? cms_admin_refuse_beyond(cms_admin_entries_beyond_caller($old, $caps), "set these entries of {$user->user_login}")
            ?? (user_can($user, 'manage_options') && !cms_admin_would_manage($user, '', [], '', $caps)
                ? cms_admin_refuse_last_manager(static fn (WP_User $u) => $u->ID === $user->ID ? false : user_can($u, 'manage_options'))
                : null);
        if ($refused || $request['check']) {
            return $refused ?? cms_admin_user_caps_answer($user) + ['checked' => true];
        }
        foreach ($old as $cap => $granted) {
            if (!array_key_exists($cap, $caps)) {
                $user->remove_cap($cap);
            }
        }
        foreach ($caps as $cap => $granted) {
            if (($old[$cap] ?? null) !== $granted) {
                $user->add_cap($cap, $granted);
            }
        }
        return cms_admin_user_caps_answer(get_userdata($user->ID));
    });
}

/** Every account that holds `cap` on this site, and through what: a role, its own grant, super admin. */
function cms_admin_capability_users(WP_REST_Request $request): array
{
    $cap = (string) $request['cap'];
    $granting = [];
    foreach (wp_roles()->roles as $slug => $role) {
        if (!empty($role['capabilities'][$cap])) {
            $granting[] = (string) $slug;
        }
    }
    // Accounts of a granting role, and accounts whose own entries name it (user meta, serialized).
    global $wpdb;
    $key = $wpdb->get_blog_prefix() . 'capabilities';
    $ids = $granting ? array_map('intval', get_users(['role__in' => $granting, 'fields' => 'ID', 'number' => -1])) : [];
    $like = '%' . $wpdb->esc_like('"' . $cap . '"') . '%';
    $own = $wpdb->get_col($wpdb->prepare("SELECT user_id FROM {$wpdb->usermeta} WHERE meta_key = %s AND meta_value LIKE %s", $key, $like));
    $ids = array_unique(array_merge($ids, array_map('intval', $own), is_multisite() ? array_map(static fn ($l) => (int) (get_user_by('login', $l)->ID ?? 0), get_super_admins()) : []));
    sort($ids);
    $items = [];
    foreach ($ids as $id) {
        $user = get_userdata($id);
        $super = is_multisite() && is_super_admin($id);
        // Held: granted and not denied to the account itself. A site constant may still take it
        // from everyone (DISALLOW_FILE_MODS maps install_plugins to do_not_allow): `can` says so.
        if (!$user || (empty($user->allcaps[$cap]) && !$super)) {
            continue;
        }
        $through = array_values(array_intersect($user->roles, $granting));
        $own_caps = cms_admin_user_own_caps($user);
        if (!empty($own_caps[$cap])) {
            $through[] = 'own grant';
        }
        if (is_multisite() && is_super_admin($id)) {
            $through[] = 'super admin';
        }
        $items[] = ['id' => $id, 'username' => $user->user_login, 'name' => $user->display_name, 'roles' => array_values($user->roles), 'through' => $through, 'can' => user_can($user, $cap), 'disabled' => cms_admin_is_disabled($id)];
    }
    $limit = (int) $request['per_page'];
    return ['capability' => $cap, 'roles' => $granting, 'total' => count($items), 'users' => array_slice($items, 0, $limit)];
}
