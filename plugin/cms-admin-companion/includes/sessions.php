<?php
/**
 * Login sessions over REST, which core does not offer (only wp-admin's "Log Out Everywhere").
 *
 *   GET    cms-admin/v1/users/{id}/sessions   → {id, username, total, items: [{login, expires, ip, user_agent}]}
 *   DELETE cms-admin/v1/users/{id}/sessions   → {id, username, ended}
 *
 * Both need edit_user on the account (as wp-admin's user-edit.php "Log Out Everywhere" does,
 * wp_ajax_destroy_sessions()), which refuses accounts stronger than the caller (capability-guards.php),
 * and never send a session token or its verifier (the array keys of WP_Session_Tokens::get_all()
 * in the user meta are sha256 verifiers of the cookie tokens). Ending the caller's own sessions
 * is refused: a person does that with "Log Out" in wp-admin.
 * https://developer.wordpress.org/reference/classes/wp_session_tokens/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/users/(?P<id>\d+)/sessions', [
        [
            'methods' => WP_REST_Server::READABLE,
            'callback' => 'cms_admin_rest_list_sessions',
            'permission_callback' => 'cms_admin_rest_sessions_permission',
            'args' => ['id' => ['type' => 'integer', 'minimum' => 1, 'required' => true]],
        ],
        [
            'methods' => WP_REST_Server::DELETABLE,
            'callback' => 'cms_admin_rest_end_sessions',
            'permission_callback' => 'cms_admin_rest_sessions_permission',
            'args' => ['id' => ['type' => 'integer', 'minimum' => 1, 'required' => true]],
        ],
    ]);
});

/**
 * edit_user on the account, which WordPress refuses for a stronger account (capability-guards.php);
 * then the refusal says why, as core's user routes do there.
 */
function cms_admin_rest_sessions_permission(WP_REST_Request $request)
{
    $id = (int) $request['id'];
    if (current_user_can('edit_user', $id)) {
        return true;
    }
    $user = get_userdata($id);
    if ($user && current_user_can('list_users') && !empty($GLOBALS['cms_admin_guard_refusals'][$id])) {
        return cms_admin_refuse_stronger_account($user, 'DELETE' === $request->get_method() ? 'log out' : 'see the login sessions of') ?? false;
    }
    return false;
}

/** The route's user when the caller may see or end its sessions, or the error why not. */
function cms_admin_sessions_user(WP_REST_Request $request, string $what)
{
    $user = cms_admin_rest_user($request);
    if (is_wp_error($user)) {
        return $user;
    }
    return cms_admin_refuse_stronger_account($user, $what) ?? $user;
}

function cms_admin_rest_list_sessions(WP_REST_Request $request)
{
    $user = cms_admin_sessions_user($request, 'see the login sessions of');
    if (is_wp_error($user)) {
        return $user;
    }
    $items = [];
    // get_all() keeps only unexpired sessions; its keys (verifiers) stay here.
    foreach (WP_Session_Tokens::get_instance($user->ID)->get_all() as $session) {
        $items[] = [
            'login' => isset($session['login']) ? gmdate('c', (int) $session['login']) : null,
            'expires' => isset($session['expiration']) ? gmdate('c', (int) $session['expiration']) : null,
            'ip' => (string) ($session['ip'] ?? ''),
            'user_agent' => substr((string) ($session['ua'] ?? ''), 0, 300),
        ];
    }
    usort($items, static fn (array $a, array $b) => strcmp((string) $b['login'], (string) $a['login']));
    return ['id' => $user->ID, 'username' => $user->user_login, 'total' => count($items), 'items' => $items];
}

function cms_admin_rest_end_sessions(WP_REST_Request $request)
{
    $user = cms_admin_rest_user($request);
    if (is_wp_error($user)) {
        return $user;
    }
    if (get_current_user_id() === $user->ID) {
        return new WP_Error(
            'cms_admin_cannot_log_out_self',
            __('You cannot end the sessions of the account you are signed in with.', 'cms-admin-companion'),
            ['status' => 400]
        );
    }
    $refused = cms_admin_refuse_stronger_account($user, 'log out');
    if ($refused) {
        return $refused;
    }
    $manager = WP_Session_Tokens::get_instance($user->ID);
    $ended = count($manager->get_all());
    $manager->destroy_all();
    return ['id' => $user->ID, 'username' => $user->user_login, 'ended' => $ended];
}
