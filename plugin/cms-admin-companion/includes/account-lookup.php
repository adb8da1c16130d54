<?php
/**
 * Accounts by exact login or email across a multisite network (0.7.0, issues #58.4 and #60.4):
 * the toolkit looks up here a name given where a network tool takes a user id. Core REST has no
 * exact lookup: /wp/v2/users lists one site's members only, and its `search` is a LIKE over
 * columns WordPress picks from the string (one with "@" is searched in emails only).
 *
 *   GET cms-admin/v1/network/accounts?name=X   super admin: every account whose login or email is X
 *
 * Both are read (a login may be another account's email), so the toolkit can refuse a name that
 * stands for two accounts instead of choosing one.
 * https://developer.wordpress.org/reference/functions/get_user_by/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    if (!is_multisite()) {
        return;
    }
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/network/accounts', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_network_accounts_named',
        'permission_callback' => 'cms_admin_network_permission',
        'args' => [
            'name' => ['type' => 'string', 'required' => true, 'minLength' => 1, 'maxLength' => 200],
        ],
    ]);
});

function cms_admin_network_accounts_named(WP_REST_Request $request): array
{
    $name = trim((string) $request['name']);
    $found = [];
    foreach (['login', 'email'] as $field) {
        $user = get_user_by($field, $name);
        if ($user instanceof WP_User) {
            $found[$user->ID] = ['id' => $user->ID, 'username' => $user->user_login, 'email' => $user->user_email];
        }
    }
    return ['accounts' => array_values($found)];
}
