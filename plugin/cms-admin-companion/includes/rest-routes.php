<?php
/**
 * REST routes under cms-admin/v1, and the `cms_disabled` field on /wp/v2/users.
 *
 *   POST cms-admin/v1/users/{id}/disable         {reason?}           edit_user
 *   POST cms-admin/v1/users/{id}/enable                               edit_user
 *   POST cms-admin/v1/users/{id}/password-reset  {delivery: email|link} edit_user
 *   GET  cms-admin/v1/roles                                           list_users
 *
 * Core's edit_user lets anyone with edit_users act on administrators too (single site), so
 * disable and password-reset also refuse accounts that hold a capability the caller lacks, and
 * disable refuses the last enabled administrator (see account-guards.php).
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

function cms_admin_rest_can_edit_user(WP_REST_Request $request): bool
{
    return current_user_can('edit_user', (int) $request['id']);
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
    $refused = cms_admin_refuse_last_administrator($user) ?? cms_admin_refuse_stronger_account($user, 'disable');
    if ($refused) {
        return $refused;
    }
    $was_disabled = cms_admin_is_disabled($user->ID);
    $state = cms_admin_disable_user($user, sanitize_textarea_field($request['reason']), get_current_user_id());
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
    $was_disabled = cms_admin_enable_user($user);
    return ['id' => $user->ID, 'username' => $user->user_login, 'disabled' => false, 'was_disabled' => $was_disabled];
}

/**
 * `email`: WordPress's own reset email, exactly what Users → "Send password reset" does
 * (wp-admin/users.php calls retrieve_password() since 5.7). `link`: a fresh key and the same
 * URL the email carries. Either way the password itself is left alone, and a new key replaces
 * any earlier one. https://developer.wordpress.org/reference/functions/retrieve_password/
 */
function cms_admin_rest_password_reset(WP_REST_Request $request)
{
    $user = cms_admin_rest_user($request);
    if (is_wp_error($user)) {
        return $user;
    }
    // A reset link or email for a stronger account would hand that account to the caller.
    $refused = cms_admin_refuse_stronger_account($user, 'reset the password of');
    if ($refused) {
        return $refused;
    }
    $result = ['id' => $user->ID, 'username' => $user->user_login, 'delivery' => $request['delivery']];
    /** Same filter wp-login.php and check_password_reset_key() use; default one day. */
    $result['expires_in_seconds'] = (int) apply_filters('password_reset_expiration', DAY_IN_SECONDS);

    if ('link' === $request['delivery']) {
        $key = get_password_reset_key($user);
        if (is_wp_error($key)) {
            return cms_admin_rest_error($key, 403);
        }
        $result['reset_link'] = network_site_url(
            'wp-login.php?action=rp&key=' . $key . '&login=' . rawurlencode($user->user_login),
            'login'
        );
        return $result;
    }

    // retrieve_password() looks the account up again by login, or by email when the login
    // holds an "@"; pin it to this user.
    $pin = static fn () => $user;
    add_filter('lostpassword_user_data', $pin, PHP_INT_MAX);
    $sent = retrieve_password($user->user_login);
    remove_filter('lostpassword_user_data', $pin, PHP_INT_MAX);
    if (is_wp_error($sent)) {
        return cms_admin_rest_error($sent, 'retrieve_password_email_failure' === $sent->get_error_code() ? 500 : 400);
    }
    $result['sent_to'] = $user->user_email;
    return $result;
}

function cms_admin_rest_roles(): array
{
    $items = [];
    foreach (wp_roles()->roles as $slug => $role) {
        $granted = array_keys(array_filter((array) ($role['capabilities'] ?? [])));
        sort($granted);
        $items[] = ['role' => $slug, 'name' => translate_user_role($role['name']), 'capabilities' => $granted];
    }
    return ['roles' => $items, 'default_role' => (string) get_option('default_role')];
}

/** A core WP_Error without an HTTP status would become a 500 with HTML in its message. */
function cms_admin_rest_error(WP_Error $error, int $status): WP_Error
{
    return new WP_Error($error->get_error_code(), wp_strip_all_tags($error->get_error_message()), ['status' => $status]);
}
