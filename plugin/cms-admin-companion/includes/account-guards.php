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
 * Capabilities `$user` holds and the current user does not (role names left out: they are
 * not capabilities). A super admin holds everything on a network.
 */
function cms_admin_capabilities_beyond_caller(WP_User $user): array
{
    if (is_multisite() && is_super_admin($user->ID) && !is_super_admin()) {
        return ['super admin'];
    }
    $roles = wp_roles();
    $beyond = [];
    foreach ($user->allcaps as $cap => $granted) {
        // user_can(): what the account can really do; a site constant (DISALLOW_FILE_EDIT)
        // may take a granted capability away from everyone.
        // level_0…level_10 are the user levels WordPress 2.0 replaced with capabilities.
        $legacy = 1 === preg_match('/^level_\d+$/', $cap);
        if ($granted && !$legacy && !$roles->is_role($cap) && user_can($user, $cap) && !current_user_can($cap)) {
            $beyond[] = $cap;
        }
    }
    // The capabilities that hand over the site first, so the message names what matters.
    $power = ['manage_options', 'promote_users', 'edit_users', 'create_users', 'delete_users', 'activate_plugins', 'edit_theme_options', 'unfiltered_html'];
    sort($beyond);
    return array_values(array_unique(array_merge(array_intersect($power, $beyond), $beyond)));
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
    $ids = get_users(['capability' => 'manage_options', 'fields' => 'ID', 'number' => -1]);
    return array_values(array_filter(array_map('intval', $ids), static fn (int $id) => !cms_admin_is_disabled($id)));
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
