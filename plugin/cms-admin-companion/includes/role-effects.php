<?php
/**
 * A role change judged by what it does to every account that holds the role (0.7.0, issue #58,
 * finding 2): WordPress merges an account's roles in order, so a denial (`manage_options: false`)
 * on a weak role strips every stronger account that also holds it. Nobody may change a role an
 * account stronger than them holds, nor take away from (or give to) any holder a capability they
 * do not hold themselves; a holder that is the caller loses nothing; the last account with
 * manage_options keeps it (cms_admin_refuse_last_manager, roles-editor.php), whatever the route.
 */

if (!defined('ABSPATH')) {
    exit;
}

/**
 * The accounts holding `$slug`, grouped by their stored entries (accounts with the same entries
 * hold the same map, so one of each group is judged): serialized entries => [entries, ids].
 * One query, however many accounts hold the role.
 */
function cms_admin_role_holder_groups(string $slug): array
{
    global $wpdb;
    $rows = $wpdb->get_results($wpdb->prepare(
        "SELECT user_id, meta_value FROM {$wpdb->usermeta} WHERE meta_key = %s AND meta_value LIKE %s",
        $wpdb->get_blog_prefix() . 'capabilities',
        '%' . $wpdb->esc_like('"' . $slug . '"') . '%'
    ));
    $groups = [];
    foreach ($rows as $row) {
        $entries = maybe_unserialize($row->meta_value);
        if (is_array($entries) && array_key_exists($slug, $entries)) {
            $groups[$row->meta_value] ??= [$entries, []];
            $groups[$row->meta_value][1][] = (int) $row->user_id;
        }
    }
    return $groups;
}

/** An account's entries after role `$slug` is deleted and its holders get `$move_to` (added last, as add_role() does). */
function cms_admin_entries_without_role(array $entries, string $slug, string $move_to): array
{
    if (!array_key_exists($slug, $entries)) {
        return $entries;
    }
    unset($entries[$slug]);
    if ('' !== $move_to && !array_key_exists($move_to, $entries)) {
        $entries[$move_to] = true;
    }
    return $entries;
}

/**
 * Refuses role `$slug` becoming `$new` (null: deleted, its holders moved to `$move_to`) when it
 * would change a stronger account, take from or give to an account what the caller lacks, or take
 * anything from the caller itself. A super admin may change any role (the network's own rule).
 */
function cms_admin_refuse_role_effects(string $slug, ?array $new, string $move_to = ''): ?WP_Error
{
    $caller = wp_get_current_user();
    $super = is_multisite() && is_super_admin();
    $super_ids = is_multisite() ? array_filter(array_map(static fn ($login) => (int) (get_user_by('login', $login)->ID ?? 0), get_super_admins())) : [];
    foreach (cms_admin_role_holder_groups($slug) as [$entries, $ids]) {
        $user = get_userdata($ids[0]);
        if (!$user) {
            continue;
        }
        $after_entries = null === $new ? cms_admin_entries_without_role($entries, $slug, $move_to) : $entries;
        $before = cms_admin_powers_of(cms_admin_effective_caps($user, [], $entries));
        $after = cms_admin_powers_of(cms_admin_effective_caps($user, null === $new ? [] : [$slug => $new], $after_entries));
        $lost = array_values(array_diff($before, $after));
        $gained = array_values(array_diff($after, $before));
        $mine = in_array($caller->ID, $ids, true);
        if ($mine && $lost && !$super) {
            return cms_admin_roles_error(
                'cms_admin_cannot_change_own_capabilities',
                sprintf(__('Your account has the role %1$s: this would take capabilities from yourself (%2$s). Ask another administrator.', 'cms-admin-companion'), $slug, implode(', ', array_slice(cms_admin_power_first($lost), 0, 5))),
                403
            );
        }
        if ($super) {
            continue;
        }
        $stronger = array_intersect($ids, $super_ids) ? ['super admin'] : ($mine ? [] : cms_admin_capabilities_beyond_caller($user, $caller));
        if ($stronger) {
            return cms_admin_roles_error(
                'cms_admin_account_stronger_than_caller',
                sprintf(
                    /* translators: 1: user login, 2: role slug, 3: capability list */
                    __('%1$s holds the role %2$s and capabilities yours does not (%3$s): you cannot change a role a stronger account holds.', 'cms-admin-companion'),
                    $user->user_login,
                    $slug,
                    implode(', ', array_slice($stronger, 0, 5)) . (count($stronger) > 5 ? ', …' : '')
                ),
                403,
                ['capabilities' => array_slice($stronger, 0, 20)]
            );
        }
        $beyond = array_values(array_filter(array_merge($lost, $gained), static fn ($cap) => !cms_admin_caller_holds($cap)));
        if ($beyond) {
            return cms_admin_refuse_beyond(cms_admin_power_first($beyond), "change what {$user->user_login} holds through the role $slug");
        }
    }
    return null;
}

/**
 * Core's user routes give roles too (POST /wp/v2/users/{id} `roles`): a change that would leave
 * no enabled account with manage_options — a role that denies it, or one without it for the last
 * administrator — is refused there as on this plugin's routes.
 */
add_filter(
    'rest_request_before_callbacks',
    static function ($response, array $handler, WP_REST_Request $request) {
        $callback = $handler['callback'] ?? null;
        if (is_wp_error($response) || !is_array($callback) || !($callback[0] ?? null) instanceof WP_REST_Users_Controller
            || !in_array($callback[1] ?? '', ['update_item', 'update_current_item'], true) || empty($request['roles']) || !is_array($request['roles'])) {
            return $response;
        }
        $user = 'update_current_item' === $callback[1] ? wp_get_current_user() : get_userdata((int) $request['id']);
        if (!$user || !$user->exists() || !user_can($user, 'manage_options') || (is_multisite() && is_super_admin($user->ID))) {
            return $response;
        }
        $own = array_filter((array) $user->caps, static fn ($key) => !wp_roles()->is_role((string) $key), ARRAY_FILTER_USE_KEY);
        $entries = $own + array_fill_keys(array_map('strval', $request['roles']), true);
        if (!empty(cms_admin_effective_caps($user, [], $entries)['manage_options'])) {
            return $response;
        }
        return cms_admin_with_administrators_lock(
            static fn () => cms_admin_refuse_last_manager(static fn (WP_User $u) => $u->ID !== $user->ID && user_can($u, 'manage_options'))
        ) ?? $response;
    },
    20,
    3
);
