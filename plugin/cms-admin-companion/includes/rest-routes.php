<?php
/**
 * REST routes under cms-admin/v1, and the `cms_disabled` field on /wp/v2/users.
 *
 *   POST cms-admin/v1/users/{id}/disable         {reason?}           edit_user
 *   POST cms-admin/v1/users/{id}/enable                               edit_user
 *   POST cms-admin/v1/users/{id}/password-reset  {delivery: email|link} edit_user
 *   GET  cms-admin/v1/roles                                           list_users
 *
 * edit_user on an account that holds a capability the caller lacks is refused for every
 * route (capability-guards.php); each route checks it again in its callback, and disable
 * refuses the last enabled administrator under a lock (see account-guards.php).
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', 'cms_admin_register_rest');

function cms_admin_register_rest(): void
{
    $ns = CMS_ADMIN_COMPANION_NAMESPACE;
    $id = ['id' => ['type' => 'integer', 'minimum' => 1, 'required' => true]];

    register_rest_route($ns, '/users/(?P<id>\d+)/disable', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_rest_disable',
        'permission_callback' => 'cms_admin_rest_can_edit_user',
        'args' => $id + ['reason' => ['type' => 'string', 'default' => '', 'maxLength' => 1000]],
    ]);
    register_rest_route($ns, '/users/(?P<id>\d+)/enable', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_rest_enable',
        'permission_callback' => 'cms_admin_rest_can_edit_user',
        'args' => $id,
    ]);
    register_rest_route($ns, '/users/(?P<id>\d+)/password-reset', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_rest_password_reset',
        'permission_callback' => 'cms_admin_rest_can_edit_user',
        'args' => $id + ['delivery' => ['type' => 'string', 'enum' => ['email', 'link'], 'default' => 'email']],
    ]);
    register_rest_route($ns, '/roles', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_rest_roles',
        'permission_callback' => static fn () => current_user_can('list_users'),
    ]);

    // In the user listing itself, so a list of users needs no request per user.
    register_rest_field('user', 'cms_disabled', [
        'get_callback' => static fn (array $user) => cms_admin_is_disabled((int) $user['id']),
        'schema' => [
            'description' => 'Whether the account is disabled (cms-admin-companion).',
            'type' => 'boolean',
            'context' => ['edit'],
            'readonly' => true,
        ],
    ]);
}

/**
 * Ordering users by registration date alone leaves ties (users registered in the same second)
 * in whatever order MySQL likes, which may differ from one LIMIT/OFFSET page to the next, so
 * paging could repeat or skip users. The user id breaks the tie.
 * https://dev.mysql.com/doc/refman/8.0/en/limit-optimization.html
 */
add_filter(
    'rest_user_query',
    static function (array $args): array {
        if (($args['orderby'] ?? '') === 'registered') {
            $order = strtoupper((string) ($args['order'] ?? 'ASC')) === 'DESC' ? 'DESC' : 'ASC';
            $args['orderby'] = ['registered' => $order, 'ID' => $order];
        }
        return $args;
    }
);

/**
 * `edit_user` on the route's user. When only the stronger-account rule (capability-guards.php)
 * refuses, the error says so: the caller may edit users, just not this one.
 */
function cms_admin_rest_can_edit_user(WP_REST_Request $request)
{
    $id = (int) $request['id'];
    if (current_user_can('edit_user', $id)) {
        return true;
    }
    $user = get_userdata($id);
    if ($user && isset($GLOBALS['cms_admin_guard_refusals'][$id])) {
        $what = ['disable' => 'disable', 'enable' => 'enable'][strtolower(basename($request->get_route()))] ?? 'reset the password of';
        return cms_admin_refuse_stronger_account($user, $what) ?? false;
    }
    return false;
}

/** The user of the route, with the same error core's /wp/v2/users/{id} gives. */
function cms_admin_rest_user(WP_REST_Request $request)
{
    $user = get_userdata((int) $request['id']);
    if (!$user || (is_multisite() && !is_user_member_of_blog($user->ID))) {
        return new WP_Error('rest_user_invalid_id', __('Invalid user ID.'), ['status' => 404]);
    }
    return $user;
}

function cms_admin_rest_disable(WP_REST_Request $request)
{
    $user = cms_admin_rest_user($request);
    if (is_wp_error($user)) {
        return $user;
    }
    if (get_current_user_id() === $user->ID) {
        return new WP_Error(
            'cms_admin_cannot_disable_self',
            __('You cannot disable the account you are signed in with.', 'cms-admin-companion'),
            ['status' => 400]
        );
    }
    // Check and write under one lock: two administrators disabling each other at once must
    // not both pass the check (each seeing the other still enabled).
    $done = cms_admin_with_administrators_lock(static function () use ($user, $request) {
        $refused = cms_admin_refuse_last_administrator($user) ?? cms_admin_refuse_stronger_account($user, 'disable');
        if ($refused) {
            return $refused;
        }
        $was_disabled = cms_admin_is_disabled($user->ID);
        $state = cms_admin_disable_user($user, sanitize_textarea_field($request['reason']), get_current_user_id());
        return [$was_disabled, $state];
    });
    if (is_wp_error($done)) {
        return $done;
    }
    [$was_disabled, $state] = $done;
    return [
        'id' => $user->ID,
        'username' => $user->user_login,
        'disabled' => true,
        'was_disabled' => $was_disabled,
        'reason' => $state['reason'],
        'disabled_at' => $state['disabled_at'],
        'disabled_by' => $state['disabled_by'],
    ];
}

function cms_admin_rest_enable(WP_REST_Request $request)
{
    $user = cms_admin_rest_user($request);
    if (is_wp_error($user)) {
        return $user;
    }
    // Re-enabling an account that holds more than the caller would undo its owner's decision.
    $refused = cms_admin_refuse_stronger_account($user, 'enable');
    if ($refused) {
        return $refused;
    }
    $was_disabled = cms_admin_enable_user($user);
    return ['id' => $user->ID, 'username' => $user->user_login, 'disabled' => false, 'was_disabled' => $was_disabled];
}

function cms_admin_rest_roles(): array
{
    $items = [];
    // How many accounts have each role (0.6.0): one query for all of them.
    $counts = count_users()['avail_roles'] ?? [];
    foreach (wp_roles()->roles as $slug => $role) {
        $granted = array_keys(array_filter((array) ($role['capabilities'] ?? [])));
        sort($granted);
        // What WordPress itself would refuse the caller to give (capability-guards.php): meta
        // capabilities such as upload_plugins are mapped, as current_user_can() does (0.3.2).
        $items[] = [
            'role' => $slug,
            'name' => translate_user_role($role['name']),
            'capabilities' => $granted,
            'beyond_caller' => cms_admin_role_beyond_caller((string) $slug),
            'users_count' => (int) ($counts[$slug] ?? 0),
            // 0.7.0: a slug that is a capability's name (a role made before the slug rule) grants it.
            'slug_is_capability' => cms_admin_is_capability_name((string) $slug),
        ];
    }
    return ['roles' => $items, 'default_role' => (string) get_option('default_role')];
}

/** A core WP_Error without an HTTP status would become a 500 with HTML in its message. */
function cms_admin_rest_error(WP_Error $error, int $status): WP_Error
{
    return new WP_Error($error->get_error_code(), wp_strip_all_tags($error->get_error_message()), ['status' => $status]);
}
