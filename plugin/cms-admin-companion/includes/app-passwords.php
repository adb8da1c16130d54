<?php
/**
 * Every account's application passwords in one listing, which core offers only one user at a
 * time (/wp/v2/users/{id}/application-passwords): "who has application passwords?" would
 * otherwise take one request per account.
 *
 *   GET cms-admin/v1/app-passwords?offset=0&per_page=100
 *     → {total, items: [{user_id, username, uuid, name, created, last_used, last_ip}]}
 *
 * Only accounts whose passwords the caller may list (core's list_app_passwords, i.e. edit_user,
 * which capability-guards.php refuses for a stronger account) are in it. Ordered by user id,
 * then creation and uuid (neither changes), so offset pages neither repeat nor skip. The hash
 * of a password is never sent, as core never sends it.
 * https://developer.wordpress.org/reference/classes/wp_application_passwords/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/app-passwords', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_rest_list_app_passwords',
        'permission_callback' => static fn () => current_user_can('list_users'),
        'args' => [
            'offset' => ['type' => 'integer', 'minimum' => 0, 'default' => 0],
            'per_page' => ['type' => 'integer', 'minimum' => 1, 'maximum' => 500, 'default' => 100],
        ],
    ]);
});

/** Core's dates are Unix times; sent in UTC with the zone said. */
function cms_admin_app_password_date($time): ?string
{
    return $time ? gmdate('Y-m-d\TH:i:s\Z', (int) $time) : null;
}

function cms_admin_rest_list_app_passwords(WP_REST_Request $request)
{
    global $wpdb;
    // Accounts that ever had one: the meta row stays (as an empty list) after all are revoked.
    $ids = $wpdb->get_col($wpdb->prepare(
        "SELECT DISTINCT user_id FROM {$wpdb->usermeta} WHERE meta_key = %s ORDER BY user_id",
        WP_Application_Passwords::USERMETA_KEY_APPLICATION_PASSWORDS
    ));
    $items = [];
    foreach (array_map('intval', $ids) as $id) {
        $user = get_userdata($id);
        if (!$user || (is_multisite() && !is_user_member_of_blog($id)) || !current_user_can('list_app_passwords', $id)) {
            continue;
        }
        $passwords = WP_Application_Passwords::get_user_application_passwords($id);
        usort($passwords, static fn (array $a, array $b) => [(int) $a['created'], $a['uuid']] <=> [(int) $b['created'], $b['uuid']]);
        foreach ($passwords as $item) {
            $items[] = [
                'user_id' => $id,
                'username' => $user->user_login,
                'uuid' => (string) $item['uuid'],
                'name' => (string) $item['name'],
                'created' => cms_admin_app_password_date($item['created'] ?? null),
                'last_used' => cms_admin_app_password_date($item['last_used'] ?? null),
                'last_ip' => isset($item['last_ip']) && '' !== $item['last_ip'] ? (string) $item['last_ip'] : null,
            ];
        }
    }
    $offset = (int) $request['offset'];
    return ['total' => count($items), 'items' => array_slice($items, $offset, (int) $request['per_page'])];
}
