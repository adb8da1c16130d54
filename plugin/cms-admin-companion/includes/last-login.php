<?php
/**
 * Each account's last login (0.7.0, issue #60 finding 9). WordPress keeps none (nor does WP-CLI),
 * so "authors who have not logged in for a year" cannot be answered without it.
 *
 *   user meta `_cms_admin_last_login` (Unix time): set at every login through wp-login.php (the
 *     `wp_login` action of wp_signon()) and at a request signed in with an application password
 *     (`application_password_did_authenticate`, at most once a minute an account: REST clients
 *     sign every request). WordPress's own `last_used` of the application passwords (recorded
 *     once a day, core's WP_Application_Passwords::record_application_password_usage) counts too.
 *   site option `cms_admin_last_login_since` (Unix time): when this plugin began recording, set
 *     at its first request. An account with no record has not logged in since then: its last
 *     login is unknown, not "never" (WordPress kept none before).
 *   `cms_last_login` (context edit) on /wp/v2/users: ISO 8601 UTC, or null (unknown).
 *   `cms_inactive_since` on the users collection: accounts whose last login is before that time,
 *     and those with no record registered by then when recording began by then (they have not
 *     logged in since); `cms_login_unknown_before`: accounts registered by then with no record
 *     (when recording began after it, whether they logged in is unknown). list_users only.
 *   `last_login_since` in the REST index's `cms_admin_companion` entry (to list_users holders).
 *
 * https://developer.wordpress.org/reference/hooks/wp_login/
 * https://developer.wordpress.org/reference/hooks/application_password_did_authenticate/
 */

if (!defined('ABSPATH')) {
    exit;
}

const CMS_ADMIN_LAST_LOGIN_META = '_cms_admin_last_login';
const CMS_ADMIN_LAST_LOGIN_SINCE = 'cms_admin_last_login_since';

/** When recording began; the first call starts it, taking in the application passwords' `last_used`. */
function cms_admin_last_login_since(): int
{
    $since = (int) get_site_option(CMS_ADMIN_LAST_LOGIN_SINCE, 0);
    if ($since > 0) {
        return $since;
    }
    global $wpdb;
    $users = $wpdb->get_col($wpdb->prepare("SELECT DISTINCT user_id FROM {$wpdb->usermeta} WHERE meta_key = %s", '_application_passwords'));
    foreach ($users as $user_id) {
        cms_admin_record_login((int) $user_id, cms_admin_app_password_last_used((int) $user_id));
    }
    // add_site_option: of two first requests at once, the first one's time stays.
    add_site_option(CMS_ADMIN_LAST_LOGIN_SINCE, time());
    return (int) get_site_option(CMS_ADMIN_LAST_LOGIN_SINCE, time());
}
add_action('init', 'cms_admin_last_login_since');

/** The latest `last_used` of an account's application passwords (0: none used). */
function cms_admin_app_password_last_used(int $user_id): int
{
    if (!class_exists('WP_Application_Passwords')) {
        return 0;
    }
    $last = 0;
    foreach (WP_Application_Passwords::get_user_application_passwords($user_id) as $password) {
        $last = max($last, (int) ($password['last_used'] ?? 0));
    }
    return $last;
}

/** Keeps the latest login time of an account. */
function cms_admin_record_login(int $user_id, int $at): void
{
    if ($user_id <= 0 || $at <= 0) {
        return;
    }
    if ($at > (int) get_user_meta($user_id, CMS_ADMIN_LAST_LOGIN_META, true)) {
        update_user_meta($user_id, CMS_ADMIN_LAST_LOGIN_META, $at);
    }
}

/** An account's last login as recorded, or WordPress's own application-password use (0: none). */
function cms_admin_last_login(int $user_id): int
{
    return max((int) get_user_meta($user_id, CMS_ADMIN_LAST_LOGIN_META, true), cms_admin_app_password_last_used($user_id));
}

add_action('wp_login', static function (string $login, WP_User $user): void {
    cms_admin_last_login_since();
    cms_admin_record_login($user->ID, time());
}, 10, 2);

add_action('application_password_did_authenticate', static function (WP_User $user): void {
    // Every REST request of a program signs in: once a minute is enough to know it is in use.
    if ((int) get_user_meta($user->ID, CMS_ADMIN_LAST_LOGIN_META, true) > time() - MINUTE_IN_SECONDS) {
        return;
    }
    cms_admin_last_login_since();
    cms_admin_record_login($user->ID, time());
});

add_action('rest_api_init', static function (): void {
    register_rest_field('user', 'cms_last_login', [
        'get_callback' => static function (array $user): ?string {
            $at = cms_admin_last_login((int) $user['id']);
            return $at > 0 ? gmdate('Y-m-d\TH:i:s\Z', $at) : null;
        },
        'schema' => [
            'description' => 'The account\'s last login, UTC (cms-admin-companion); null: none recorded since last_login_since.',
            'type' => ['string', 'null'],
            'context' => ['edit'],
            'readonly' => true,
        ],
    ]);
});

add_filter('rest_user_collection_params', static function (array $params): array {
    $date = ['type' => 'string', 'format' => 'date-time'];
    $params['cms_inactive_since'] = $date + ['description' => 'Accounts whose last login is before this time (cms-admin-companion, list_users).'];
    $params['cms_login_unknown_before'] = $date + ['description' => 'Accounts registered by this time with no login recorded (cms-admin-companion, list_users).'];
    return $params;
});

/** The filters say who logged in when: only to an account that may list accounts. */
add_filter('rest_request_before_callbacks', static function ($response, array $handler, WP_REST_Request $request) {
    if (is_wp_error($response) || !preg_match('#^/wp/v2/users/?$#i', $request->get_route())) {
        return $response;
    }
    if ($request['cms_inactive_since'] === null && $request['cms_login_unknown_before'] === null) {
        return $response;
    }
    return current_user_can('list_users')
        ? $response
        : new WP_Error('rest_forbidden', 'Filtering accounts by their last login needs the list_users capability.', ['status' => 403]);
}, 10, 3);

add_filter('rest_user_query', static function (array $args, WP_REST_Request $request): array {
    foreach (['cms_inactive_since', 'cms_login_unknown_before'] as $param) {
        if ($request[$param] !== null) {
            $args[$param] = (int) rest_parse_date((string) $request[$param], true);
        }
    }
    return $args;
}, 10, 2);

/** The filters as SQL on the users query (the meta and the registration date: one query, paged as any). */
add_action('pre_user_query', static function (WP_User_Query $query): void {
    global $wpdb;
    $inactive = (int) $query->get('cms_inactive_since');
    $unknown = (int) $query->get('cms_login_unknown_before');
    if (!$inactive && !$unknown) {
        return;
    }
    $meta = "SELECT 1 FROM {$wpdb->usermeta} cms_ll WHERE cms_ll.user_id = {$wpdb->users}.ID AND cms_ll.meta_key = %s";
    $none = $wpdb->prepare("NOT EXISTS ($meta)", CMS_ADMIN_LAST_LOGIN_META);
    if ($inactive) {
        $before = $wpdb->prepare("EXISTS ($meta AND CAST(cms_ll.meta_value AS UNSIGNED) < %d)", CMS_ADMIN_LAST_LOGIN_META, $inactive);
        // No record and recording began by then: no login since then either (registered by then).
        $quiet = cms_admin_last_login_since() <= $inactive
            ? $wpdb->prepare(" OR ($none AND {$wpdb->users}.user_registered <= %s)", gmdate('Y-m-d H:i:s', $inactive))
            : '';
        $query->query_where .= " AND ($before$quiet)";
    }
    if ($unknown) {
        $query->query_where .= $wpdb->prepare(" AND $none AND {$wpdb->users}.user_registered <= %s", gmdate('Y-m-d H:i:s', $unknown));
    }
});

// After the plugin's own entry (cms-admin-companion.php) is made.
add_filter('rest_index', static function (WP_REST_Response $response): WP_REST_Response {
    $data = $response->get_data();
    if (isset($data['cms_admin_companion']) && current_user_can('list_users')) {
        $data['cms_admin_companion']['last_login_since'] = gmdate('Y-m-d\TH:i:s\Z', cms_admin_last_login_since());
        $response->set_data($data);
    }
    return $response;
}, 20);
