<?php
/**
 * Many accounts per request, each changed only if it is still as the caller planned (0.7.0,
 * issues #59 and #61): a bulk write checks each account at the moment it changes it, so what
 * another administrator did between the toolkit's read and its write stays.
 *
 *   POST cms-admin/v1/users/bulk-roles   {items: [{id, roles, expect_roles}], budget_ms}   promote_users
 *   POST cms-admin/v1/users/bulk-delete  {items: [{id, expect: {roles, email}}], force, reassign, budget_ms}   delete_users
 *
 * Each answers per account, in order: `done` (`deleted`), `unchanged` (already so), `skipped`
 * (changed since: what it has now), `refused` (a guard: code and reason) or `gone`. Every guard
 * of the single routes holds per account, through the same functions (account-guards.php,
 * capability-guards.php, roles-editor.php). Both stop when `budget_ms` (counted from the request's
 * start, WordPress's boot included) is spent, after at least one account, and answer how far
 * they got (`processed`, `complete`): the client sends the rest, so no request nears its timeout.
 * The role change is what wp-admin's Users → "Change role to…" does (`WP_User::set_role()`). The
 * `cms_access` field an import's re-run reads is in account-access.php.
 */

if (!defined('ABSPATH')) {
    exit;
}

require_once __DIR__ . '/account-bulk-delete.php';
require_once __DIR__ . '/account-access.php';

add_action('rest_api_init', static function (): void {
    $ns = CMS_ADMIN_COMPANION_NAMESPACE;
    $roles = ['type' => 'array', 'items' => ['type' => 'string', 'pattern' => '^[A-Za-z0-9_-]{1,100}$'], 'maxItems' => 20];
    $budget = ['type' => 'integer', 'minimum' => 50, 'maximum' => 120000, 'default' => 10000];
    register_rest_route($ns, '/users/bulk-roles', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_bulk_roles',
        'permission_callback' => static fn () => current_user_can('promote_users'),
        'args' => [
            'items' => [
                'type' => 'array',
                'required' => true,
                'maxItems' => 1000,
                'items' => [
                    'type' => 'object',
                    'properties' => ['id' => ['type' => 'integer', 'minimum' => 1], 'roles' => $roles, 'expect_roles' => $roles],
                    'required' => ['id', 'roles', 'expect_roles'],
                ],
            ],
            'budget_ms' => $budget,
        ],
    ]);
    cms_admin_register_bulk_delete($ns, $budget);
});

/** A clock for one request: true once `budget_ms` since the request began is spent. */
function cms_admin_bulk_clock(WP_REST_Request $request): callable
{
    $start = (float) ($_SERVER['REQUEST_TIME_FLOAT'] ?? microtime(true));
    $budget = max(50, (int) $request['budget_ms']) / 1000;
    return static fn (): bool => microtime(true) - $start >= $budget;
}

/**
 * The account as stored now: this request's cache may hold it as it was when the request
 * began, and another request may have changed it since.
 */
function cms_admin_bulk_fresh_user(int $id): ?WP_User
{
    wp_cache_delete($id, 'users');
    wp_cache_delete($id, 'user_meta');
    $user = get_userdata($id);
    if (!$user || (is_multisite() && !is_user_member_of_blog($id))) {
        return null;
    }
    return $user;
}

function cms_admin_sorted(array $list): array
{
    $list = array_values(array_unique(array_map('strval', $list)));
    sort($list);
    return $list;
}

/** One account's answer: `result` and, for a refusal, WordPress's error code and message. */
function cms_admin_bulk_item(int $id, string $result, ?WP_User $user = null, array $extra = []): array
{
    return ['id' => $id, 'username' => $user ? $user->user_login : null, 'result' => $result] + $extra;
}

function cms_admin_bulk_refused(int $id, WP_User $user, WP_Error $error): array
{
    return cms_admin_bulk_item($id, 'refused', $user, ['code' => $error->get_error_code(), 'reason' => $error->get_error_message()]);
}

/** The whole answer: the accounts done so far, and whether every one was reached. */
function cms_admin_bulk_answer(array $done, int $total): array
{
    return ['items' => $done, 'processed' => count($done), 'total' => $total, 'complete' => count($done) === $total];
}

function cms_admin_bulk_roles(WP_REST_Request $request): array
{
    $spent = cms_admin_bulk_clock($request);
    $items = (array) $request['items'];
    $done = [];
    foreach ($items as $i => $item) {
        if ($i > 0 && $spent()) {
            break;
        }
        $done[] = cms_admin_bulk_role_item((int) $item['id'], cms_admin_sorted((array) $item['roles']), cms_admin_sorted((array) $item['expect_roles']));
    }
    return cms_admin_bulk_answer($done, count($items));
}

/** Sets `$roles` on account `$id` if it still has exactly `$expect`, with every guard of a role change. */
function cms_admin_bulk_role_item(int $id, array $roles, array $expect): array
{
    $user = cms_admin_bulk_fresh_user($id);
    if (!$user) {
        return cms_admin_bulk_item($id, 'gone', null, ['reason' => 'no such account on this site (deleted since)']);
    }
    $now = cms_admin_sorted($user->roles);
    if ($now === $roles) {
        return cms_admin_bulk_item($id, 'unchanged', $user, ['before' => $now, 'after' => $now]);
    }
    if ($now !== $expect) {
        return cms_admin_bulk_item($id, 'skipped', $user, ['before' => $now, 'reason' => cms_admin_roles_changed_words($now, $expect)]);
    }
    $refused = cms_admin_bulk_role_refusal($user, $roles);
    if ($refused) {
        return cms_admin_bulk_refused($id, $user, $refused);
    }
    $write = static function () use ($user, $roles, $expect) {
        // Checked again under the lock: another request may have changed the account while this one waited.
        $fresh = cms_admin_bulk_fresh_user($user->ID);
        if (!$fresh || cms_admin_sorted($fresh->roles) !== $expect) {
            $now = $fresh ? cms_admin_sorted($fresh->roles) : [];
            return new WP_Error('cms_admin_changed_since', $fresh ? cms_admin_roles_changed_words($now, $expect) : 'deleted since', ['before' => $now]);
        }
        // The last enabled account with manage_options keeps it (what role deletion and capability edits refuse too).
        if (user_can($fresh, 'manage_options') && !cms_admin_roles_would_manage($fresh, $roles)) {
            $refused = cms_admin_refuse_last_manager(static fn (WP_User $u) => $u->ID === $fresh->ID ? false : user_can($u, 'manage_options'));
            if ($refused) {
                return $refused;
            }
        }
        $fresh->set_role($roles[0] ?? '');
        foreach (array_slice($roles, 1) as $role) {
            $fresh->add_role($role);
        }
        return $fresh;
    };
    // Only a change that may take manage_options away waits for the administrators' lock.
    $result = user_can($user, 'manage_options') ? cms_admin_with_administrators_lock($write) : $write();
    if (is_wp_error($result)) {
        return 'cms_admin_changed_since' === $result->get_error_code()
            ? cms_admin_bulk_item($id, 'skipped', $user, ['before' => $result->get_error_data()['before'] ?? [], 'reason' => $result->get_error_message()])
            : cms_admin_bulk_refused($id, $user, $result);
    }
    return cms_admin_bulk_item($id, 'done', $user, ['before' => $expect, 'after' => cms_admin_sorted($result->roles)]);
}

function cms_admin_roles_changed_words(array $now, array $expect): string
{
    $say = static fn (array $roles) => $roles ? implode(', ', $roles) : 'no role';
    return sprintf('changed since it was read: it has %s now (was %s)', $say($now), $say($expect));
}

/**
 * Why the caller may not give `$roles` to `$user`, as core's users route and wp-admin's bulk
 * "Change role to" check it (promote_user on that account, which the stronger-account rule
 * guards; each role among the caller's editable_roles), and no one changes their own role.
 */
function cms_admin_bulk_role_refusal(WP_User $user, array $roles): ?WP_Error
{
    if (get_current_user_id() === $user->ID) {
        return new WP_Error('cms_admin_cannot_change_own_role', __('An account cannot change its own role; ask another administrator.', 'cms-admin-companion'), ['status' => 403]);
    }
    if (!current_user_can('promote_user', $user->ID)) {
        return cms_admin_refuse_stronger_account($user, 'change the role of')
            ?? new WP_Error('rest_cannot_edit_roles', __('Sorry, you are not allowed to edit roles of this user.'), ['status' => 403]);
    }
    require_once ABSPATH . 'wp-admin/includes/user.php';
    $editable = get_editable_roles();
    foreach ($roles as $role) {
        if (!wp_roles()->is_role($role)) {
            return new WP_Error('cms_admin_unknown_role', sprintf(__('There is no role %s on this site.', 'cms-admin-companion'), $role), ['status' => 400]);
        }
        $beyond = cms_admin_role_beyond_caller($role);
        if ($beyond || empty($editable[$role])) {
            return new WP_Error(
                'cms_admin_role_stronger_than_caller',
                sprintf(__('You cannot give the role %1$s: it grants capabilities your account does not hold (%2$s).', 'cms-admin-companion'), $role, implode(', ', array_slice($beyond, 0, 5)) ?: $role),
                ['status' => 403, 'capabilities' => array_slice($beyond, 0, 20)]
            );
        }
    }
    return null;
}

/** Whether `$user` would hold manage_options with exactly `$roles` (its own grants and denials kept). */
function cms_admin_roles_would_manage(WP_User $user, array $roles): bool
{
    if (is_multisite() && is_super_admin($user->ID)) {
        return true;
    }
    $own = array_filter($user->caps, static fn ($cap) => !wp_roles()->is_role((string) $cap), ARRAY_FILTER_USE_KEY);
    $probe = clone $user;
    $probe->caps = array_fill_keys($roles, true) + $own;
    $probe->get_role_caps();
    return user_can($probe, 'manage_options');
}
