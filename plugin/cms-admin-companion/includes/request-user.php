<?php
/**
 * Who a REST request was served as (0.7.0, issue #61): `X-CMS-Admin-User: <id> <login>` (the login
 * rawurlencoded) on every answer to a logged-in account. The toolkit then knows from the first
 * answer of a call that WordPress accepted its application password, instead of asking
 * /wp/v2/users/me before every read: WordPress answers public routes to a visitor whose
 * credentials never arrived (a server that drops the Authorization header) as to anyone, so a
 * read's own answer cannot tell otherwise. Nothing is said to a visitor; the account learns only
 * its own name.
 * https://developer.wordpress.org/reference/hooks/rest_post_dispatch/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_filter('rest_post_dispatch', static function ($response) {
    if ($response instanceof WP_HTTP_Response && is_user_logged_in()) {
        $user = wp_get_current_user();
        $response->header('X-CMS-Admin-User', $user->ID . ' ' . rawurlencode($user->user_login));
    }
    return $response;
});
