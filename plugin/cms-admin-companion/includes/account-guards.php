<?php
/**
 * Guards against one account taking others out of their owners' hands.
 *
 * WordPress maps `edit_user` to the `edit_users` capability alone on a single site, so a
 * custom "user manager" role may edit, and through this plugin disable or reset, an
 * administrator. https://developer.wordpress.org/reference/functions/map_meta_cap/ (case 'edit_user')
 * These refuse what core would allow.
 */

if (!defined('ABSPATH')) {
    exit;
}

/**
 * Capabilities `$user` holds and `$caller` (default: the current user) does not, compared as maps
 * (0.7.0, #58): every key of its map that is a capability — its role slugs only when a slug is a
 * capability's name (capability-maps.php) — level_3 … level_10 included, Author's and below
 * (level_0 … level_2) left out. A super admin holds everything on a network.
 */
function cms_admin_capabilities_beyond_caller(WP_User $user, ?WP_User $caller = null): array
{
    $caller ??= wp_get_current_user();
    if (is_multisite() && is_super_admin($user->ID) && !is_super_admin($caller->ID)) {
        return ['super admin'];
    }
    $beyond = [];
    foreach ($user->allcaps as $cap => $granted) {
        $cap = (string) $cap;
        // user_can(): what the account can really do; a site constant (DISALLOW_FILE_EDIT)
        // may take a granted capability away from everyone.
        if ($granted && cms_admin_is_capability($cap) && !cms_admin_never_beyond($cap) && user_can($user, $cap) && !user_can($caller, $cap)) {
            $beyond[] = $cap;
        }
    }
    return cms_admin_power_first($beyond);
}

/**
 * Whether a key of an account's map is a capability: any capability's name (capability-maps.php),
 * and any other string that is no role's slug (a custom capability). Only a role slug that is no
 * capability's name is left out: WordPress puts the account's role slugs among its capabilities.
 */
function cms_admin_is_capability(string $cap): bool
{
    return cms_admin_is_capability_name($cap) || !wp_roles()->is_role($cap);
}

/** The capabilities that hand over the site first (the one table's order), so a message names what matters. */
function cms_admin_power_first(array $caps): array
{
    $power = array_keys(cms_admin_capability_table()['powerful']);
    sort($caps);
    return array_values(array_unique(array_merge(array_intersect($power, $caps), $caps)));
}

/** A 403 when `$user` holds capabilities the caller lacks: only an equal may do `$what`. */
function cms_admin_refuse_stronger_account(WP_User $user, string $what): ?WP_Error
{
    $beyond = cms_admin_capabilities_beyond_caller($user);
    if (!$beyond) {
        return null;
    }
    return new WP_Error(
        'cms_admin_account_stronger_than_caller',
        sprintf(
            /* translators: 1: action, 2: user login, 3: capability list */
            __('You cannot %1$s %2$s: that account holds capabilities yours does not (%3$s).', 'cms-admin-companion'),
            $what,
            $user->user_login,
            implode(', ', array_slice($beyond, 0, 5)) . (count($beyond) > 5 ? ', …' : '')
        ),
        ['status' => 403, 'capabilities' => array_slice($beyond, 0, 20)]
    );
}

/** Enabled accounts that can manage the site's settings, i.e. administrators (any role name). */
function cms_admin_enabled_administrators(): array
{
    $ids = array_map('intval', get_users(['capability' => 'manage_options', 'fields' => 'ID', 'number' => -1]));
    // The state as stored now: this request may have cached it before another one changed it.
    foreach ($ids as $id) {
        wp_cache_delete($id, 'user_meta');
    }
    return array_values(array_filter($ids, static fn (int $id) => !cms_admin_is_disabled($id)));
}

/** The GET_LOCK name every change of administrators takes (also user deletes, offboarding.php). */
function cms_admin_administrators_lock_name(): string
{
    global $wpdb;
    return 'cms_admin_admins_' . md5($wpdb->prefix . DB_NAME);
}

/**
 * Runs `$check_and_write` while holding a database lock, so two requests that each disable an
 * administrator cannot both pass the last-administrator check before either writes (MySQL's
 * GET_LOCK is per site and shared by every PHP worker). https://mariadb.com/kb/en/get_lock/
 */
function cms_admin_with_administrators_lock(callable $check_and_write)
{
    global $wpdb;
    $name = cms_admin_administrators_lock_name();
    if ('1' !== (string) $wpdb->get_var($wpdb->prepare('SELECT GET_LOCK(%s, %d)', $name, 15))) {
        return new WP_Error(
            'cms_admin_busy',
            __('Another request is changing administrators right now; try again.', 'cms-admin-companion'),
            ['status' => 503]
        );
    }
    try {
        return $check_and_write();
    } finally {
        $wpdb->query($wpdb->prepare('SELECT RELEASE_LOCK(%s)', $name));
    }
}

/** A 409 when `$user` is the last enabled administrator: disabling it would leave no one in charge. */
function cms_admin_refuse_last_administrator(WP_User $user): ?WP_Error
{
    if (!user_can($user, 'manage_options') || cms_admin_is_disabled($user->ID)) {
        return null;
    }
    if (array_diff(cms_admin_enabled_administrators(), [$user->ID])) {
        return null;
    }
    return new WP_Error(
        'cms_admin_last_administrator',
        sprintf(
            /* translators: %s: user login */
            __('%s is the last enabled administrator; disabling it would leave the site without one.', 'cms-admin-companion'),
            $user->user_login
        ),
        ['status' => 409]
    );
}
