<?php
/**
 * Deleting accounts and revoking application passwords through core's REST routes, with the
 * guards core lacks, and the content count an approval needs.
 *
 *   GET cms-admin/v1/users/{id}/content  → {id, username, types: [{type, label, total, statuses, deleted_with_user, to_trash}], links, trash_days}
 *
 * `to_trash`: of what is deleted with the account, what wp_delete_post() moves to the Trash
 * instead (posts and pages not yet trashed, while EMPTY_TRASH_DAYS is on), as wp-admin's
 * "Delete all content" does; the rest is deleted for good.
 * https://developer.wordpress.org/reference/functions/wp_delete_post/
 *
 * Core's DELETE /wp/v2/users/{id} lets a caller delete itself, the last administrator, and
 * reassign posts to a subscriber; DELETE /wp/v2/users/{id}/application-passwords[/{uuid}] lets a
 * program revoke the very password it is signed in with. These refuse that, before core's
 * callback runs (`rest_request_before_callbacks`), and only for callers core would let through.
 * https://developer.wordpress.org/reference/classes/wp_rest_users_controller/delete_item/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/users/(?P<id>\d+)/content', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_rest_user_content',
        'permission_callback' => static fn () => current_user_can('list_users'),
        'args' => ['id' => ['type' => 'integer', 'minimum' => 1, 'required' => true]],
    ]);
});

/** The post types wp_delete_user() deletes when no one inherits the content (same rule, same filter). */
function cms_admin_types_deleted_with_user(int $user_id): array
{
    $types = [];
    foreach (get_post_types([], 'objects') as $type) {
        if ($type->delete_with_user || (null === $type->delete_with_user && post_type_supports($type->name, 'author'))) {
            $types[] = $type->name;
        }
    }
    return (array) apply_filters('post_types_to_delete_with_user', $types, $user_id);
}

/** Everything the user authored, by type and status (revisions and auto-drafts left out: no one reads them). */
function cms_admin_rest_user_content(WP_REST_Request $request)
{
    global $wpdb;
    $user = cms_admin_rest_user($request);
    if (is_wp_error($user)) {
        return $user;
    }
    $rows = $wpdb->get_results($wpdb->prepare(
        "SELECT post_type, post_status, COUNT(*) AS n FROM {$wpdb->posts} WHERE post_author = %d AND post_type <> 'revision' AND post_status <> 'auto-draft' GROUP BY post_type, post_status",
        $user->ID
    ));
    $deleted = cms_admin_types_deleted_with_user($user->ID);
    $types = [];
    foreach ($rows as $row) {
        $object = get_post_type_object($row->post_type);
        $types[$row->post_type] ??= [
            'type' => $row->post_type,
            'label' => $object ? $object->labels->name : $row->post_type,
            'total' => 0,
            'statuses' => [],
            'deleted_with_user' => in_array($row->post_type, $deleted, true),
            'to_trash' => 0,
        ];
        if (EMPTY_TRASH_DAYS && in_array($row->post_type, ['post', 'page'], true) && 'trash' !== $row->post_status && $types[$row->post_type]['deleted_with_user']) {
            $types[$row->post_type]['to_trash'] += (int) $row->n;
        }
        $types[$row->post_type]['total'] += (int) $row->n;
        $types[$row->post_type]['statuses'][$row->post_status] = (int) $row->n;
    }
    $links = (int) $wpdb->get_var($wpdb->prepare("SELECT COUNT(*) FROM {$wpdb->links} WHERE link_owner = %d", $user->ID));
    return ['id' => $user->ID, 'username' => $user->user_login, 'types' => array_values($types), 'links' => $links, 'trash_days' => (int) EMPTY_TRASH_DAYS];
}

/**
 * Matched by the handler WordPress chose (any spelling of the route reaches it: routes match
 * case-insensitively), and keyed on the ids that handler acts on: core reads them from the
 * request's merged parameters, where a query or body `id` (`user_id`, `uuid`) wins over the
 * route's own (WP_REST_Request::get_parameter_order(): JSON, POST, GET, then URL), so
 * `DELETE /wp/v2/users/24?id=<self>` deletes the caller. The route's digits are never the target.
 * https://developer.wordpress.org/reference/classes/wp_rest_request/get_parameter_order/
 */
add_filter(
    'rest_request_before_callbacks',
    static function ($response, $handler, WP_REST_Request $request) {
        $callback = is_array($handler) ? ($handler['callback'] ?? null) : null;
        if (is_wp_error($response) || !is_array($callback) || !is_object($callback[0] ?? null)) {
            return $response;
        }
        [$controller, $method] = [$callback[0], (string) ($callback[1] ?? '')];
        if ($controller instanceof WP_REST_Users_Controller && in_array($method, ['delete_item', 'delete_current_item'], true)) {
            // delete_current_item() sets `id` to the caller itself before deleting.
            $user_id = 'delete_current_item' === $method ? get_current_user_id() : (int) $request->get_param('id');
            return cms_admin_guard_user_delete($request, $user_id) ?? $response;
        }
        if ($controller instanceof WP_REST_Application_Passwords_Controller && in_array($method, ['delete_item', 'delete_items'], true)) {
            // Signing out on purpose (mcp --http revoking a grant's own password) is not cutting oneself off by mistake.
            if ('delete_item' === $method && '1' === (string) $request->get_param('cms_admin_sign_out')) {
                return $response;
            }
            // As the controller's get_user(): `me` is the caller, anything else an id.
            $user = $request->get_param('user_id');
            $user_id = is_string($user) && 'me' === strtolower($user) ? get_current_user_id() : (int) (is_scalar($user) ? $user : 0);
            $uuid = 'delete_item' === $method ? (string) (is_scalar($request->get_param('uuid')) ? $request->get_param('uuid') : '') : null;
            return cms_admin_guard_own_app_password($user_id, $uuid) ?? $response;
        }
        return $response;
    },
    10,
    3
);

/**
 * The user delete's own checks. The caller needs delete_users; a stronger target is refused by
 * WordPress itself (delete_user, capability-guards.php), said here first with the reason. The
 * last-administrator check holds the administrators lock until the delete is done (released in
 * rest_request_after_callbacks), so a concurrent disable or delete cannot pass it too.
 */
function cms_admin_guard_user_delete(WP_REST_Request $request, int $user_id): ?WP_Error
{
    $user = get_userdata($user_id);
    if (!$user || !current_user_can('delete_users')) {
        return null; // core answers: not found, or not allowed
    }
    if (get_current_user_id() === $user_id) {
        return new WP_Error('cms_admin_cannot_delete_self', __('You cannot delete the account you are signed in with.', 'cms-admin-companion'), ['status' => 400]);
    }
    $reassign = $request['reassign'];
    if (!(false === $reassign || null === $reassign || '' === $reassign || 'false' === $reassign || 0 === (int) $reassign)) {
        $heir = get_userdata((int) $reassign);
        if (!$heir || $heir->ID === $user_id || !user_can($heir, 'edit_posts')) {
            return new WP_Error(
                'cms_admin_invalid_reassign',
                __('The posts must go to another existing user who can write posts (edit_posts).', 'cms-admin-companion'),
                ['status' => 400]
            );
        }
    }
    global $wpdb;
    $lock = cms_admin_administrators_lock_name();
    if ('1' !== (string) $wpdb->get_var($wpdb->prepare('SELECT GET_LOCK(%s, %d)', $lock, 15))) {
        return new WP_Error('cms_admin_busy', __('Another request is changing administrators right now; try again.', 'cms-admin-companion'), ['status' => 503]);
    }
    // As disabling (rest-routes.php): the last administrator first, it says more than "stronger".
    $refused = cms_admin_refuse_last_administrator($user) ?? cms_admin_refuse_stronger_account($user, 'delete');
    if ($refused && 'cms_admin_last_administrator' === $refused->get_error_code()) {
        $refused = new WP_Error(
            'cms_admin_last_administrator',
            /* translators: %s: user login */
            sprintf(__('%s is the last enabled administrator; deleting it would leave the site without one.', 'cms-admin-companion'), $user->user_login),
            ['status' => 409]
        );
    }
    if ($refused) {
        $wpdb->query($wpdb->prepare('SELECT RELEASE_LOCK(%s)', $lock));
        return $refused;
    }
    // Held until core's delete has run.
    add_filter('rest_request_after_callbacks', static function ($response) use ($lock) {
        global $wpdb;
        $wpdb->query($wpdb->prepare('SELECT RELEASE_LOCK(%s)', $lock));
        return $response;
    }, PHP_INT_MIN);
    // wp_delete_user() deletes the account's links with wp_delete_link(), which only wp-admin
    // loads: over REST a delete without heir died halfway (posts gone, account and links kept).
    require_once ABSPATH . 'wp-admin/includes/bookmark.php';
    return null;
}

/** Revoking the application password this very request is signed in with (or all of its user's) would cut the caller off. */
function cms_admin_guard_own_app_password(int $user_id, ?string $uuid): ?WP_Error
{
    $own = function_exists('rest_get_authenticated_app_password') ? rest_get_authenticated_app_password() : null;
    if (!$own || get_current_user_id() !== $user_id || (null !== $uuid && $uuid !== $own)) {
        return null;
    }
    return new WP_Error(
        'cms_admin_own_app_password',
        __('You cannot revoke the application password this request is signed in with.', 'cms-admin-companion'),
        ['status' => 409]
    );
}
