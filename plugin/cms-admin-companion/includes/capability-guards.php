<?php
/**
 * The stronger-account rule in WordPress itself, for every route and screen, not only this
 * plugin's: core's REST users controller, wp-admin/user-edit.php, users.php, XML-RPC.
 *
 * On a single site map_meta_cap() turns `edit_user`, `promote_user`, `remove_user` and
 * `delete_user` into `edit_users`, `promote_users`, `remove_users`, `delete_users` whoever the
 * target is, so a "user manager" role could set an administrator's email and password and log
 * in as them. https://developer.wordpress.org/reference/functions/map_meta_cap/
 * Here those meta capabilities also need every capability the target account holds, and
 * `editable_roles` (the roles an account may hand out, which core's REST API and the admin
 * screens check) loses every role that grants a capability the caller lacks, so no one
 * promotes anyone, themselves included, above their own level.
 */

if (!defined('ABSPATH')) {
    exit;
}

const CMS_ADMIN_GUARDED_META_CAPS = ['edit_user', 'promote_user', 'remove_user', 'delete_user'];

/** Why the last guarded check of this request refused, by target id (for the REST error below). */
$GLOBALS['cms_admin_guard_refusals'] = [];

add_filter(
    'map_meta_cap',
    static function (array $caps, string $cap, int $user_id, array $args): array {
        static $busy = false;
        $target_id = is_numeric($args[0] ?? null) ? (int) $args[0] : 0;
        if ($busy || !$target_id || $target_id === $user_id || !in_array($cap, CMS_ADMIN_GUARDED_META_CAPS, true)) {
            return $caps;
        }
        $target = get_userdata($target_id);
        $caller = get_userdata($user_id);
        if (!$target || !$caller) {
            return $caps;
        }
        $busy = true; // user_can() below maps capabilities too
        try {
            $beyond = cms_admin_capabilities_beyond_caller($target, $caller);
        } finally {
            $busy = false;
        }
        if (!$beyond) {
            return $caps;
        }
        $GLOBALS['cms_admin_guard_refusals'][$target_id] = $beyond;
        return array_merge($caps, ['do_not_allow']);
    },
    10,
    4
);

/**
 * Capabilities `$role` grants that the current user lacks — its slug too when that is a
 * capability's name (0.7.0: holding the role grants it; capability-maps.php). Capabilities no one
 * can have on this site (DISALLOW_FILE_EDIT maps edit_plugins to do_not_allow) do not count, nor
 * Author's and below.
 */
function cms_admin_role_beyond_caller(string $role): array
{
    $object = get_role($role);
    if (!$object) {
        return [];
    }
    $beyond = [];
    foreach (cms_admin_role_grants($role, (array) $object->capabilities) as $cap => $granted) {
        $cap = (string) $cap;
        if ($granted && cms_admin_is_capability($cap) && !cms_admin_never_beyond($cap) && !current_user_can($cap)
            && !in_array('do_not_allow', map_meta_cap($cap, get_current_user_id()), true)) {
            $beyond[] = $cap;
        }
    }
    return cms_admin_power_first($beyond);
}

add_filter(
    'editable_roles',
    static function (array $roles): array {
        if (!is_user_logged_in() || (is_multisite() && is_super_admin())) {
            return $roles;
        }
        return array_filter($roles, static fn ($role) => !cms_admin_role_beyond_caller((string) $role), ARRAY_FILTER_USE_KEY);
    },
    PHP_INT_MAX
);

/**
 * Core answers a refused user edit with "Sorry, you are not allowed to edit this user."; say
 * why instead, when this guard was the reason (and the caller may list users anyway).
 */
add_filter(
    'rest_request_after_callbacks',
    static function ($response, array $handler, WP_REST_Request $request) {
        $id = (int) $request['id'];
        $refused = $GLOBALS['cms_admin_guard_refusals'][$id] ?? null;
        if (!$refused || !is_wp_error($response) || !current_user_can('list_users')
            || !preg_match('#^/wp/v2/users/\d+#i', $request->get_route())) {
            return $response;
        }
        $status = (int) ($response->get_error_data()['status'] ?? 0);
        $user = get_userdata($id);
        if (!in_array($status, [401, 403], true) || !$user) {
            return $response;
        }
        $what = ['GET' => 'manage', 'DELETE' => 'delete'][$request->get_method()] ?? 'edit';
        return cms_admin_refuse_stronger_account($user, $what) ?? $response;
    },
    10,
    3
);

/**
 * A new account given no role gets the site's default role (wp_insert_user()), which neither
 * core's REST API nor user-new.php (which ignores the role field without promote_users) checks
 * against `editable_roles`: with default_role "editor", a user manager could create an editor
 * and sign in as it. Refused like any other role above the caller's.
 */
function cms_admin_refuse_default_role(): ?WP_Error
{
    $role = (string) get_option('default_role');
    if ('' === $role || !is_user_logged_in() || (is_multisite() && is_super_admin())) {
        return null;
    }
    $beyond = cms_admin_role_beyond_caller($role);
    if (!$beyond) {
        return null;
    }
    return new WP_Error(
        'cms_admin_role_stronger_than_caller',
        sprintf(
            /* translators: 1: role slug, 2: capability list */
            __('A new account without a role gets the default role %1$s, which grants capabilities yours does not (%2$s); give it a role up to your own, or ask an administrator.', 'cms-admin-companion'),
            $role,
            implode(', ', array_slice($beyond, 0, 5)) . (count($beyond) > 5 ? ', …' : '')
        ),
        ['status' => 403, 'capabilities' => array_slice($beyond, 0, 20)]
    );
}

// POST /wp/v2/users without `roles` (matched by its handler: routes match case-insensitively).
add_filter(
    'rest_request_before_callbacks',
    static function ($response, array $handler, WP_REST_Request $request) {
        $callback = $handler['callback'] ?? null;
        if (is_wp_error($response) || !is_array($callback) || !($callback[0] ?? null) instanceof WP_REST_Users_Controller
            || 'create_item' !== ($callback[1] ?? '') || isset($request['roles']) || !current_user_can('create_users')) {
            return $response;
        }
        return cms_admin_refuse_default_role() ?? $response;
    },
    10,
    3
);

// wp-admin/user-new.php: edit_user() sets a role only when one is posted by an account with promote_users.
add_action(
    'user_profile_update_errors',
    static function (WP_Error $errors, bool $update, $user): void {
        $refused = $update || isset($user->role) ? null : cms_admin_refuse_default_role();
        if ($refused) {
            $errors->add($refused->get_error_code(), $refused->get_error_message());
        }
    },
    10,
    3
);
