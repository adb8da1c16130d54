<?php
/**
 * POST cms-admin/v1/users/{id}/password-reset (registered in rest-routes.php).
 */

if (!defined('ABSPATH')) {
    exit;
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
    if (cms_admin_is_disabled($user->ID)) {
        // allow_password_reset is false for it (disabled-users.php); say why to the caller.
        return new WP_Error(
            'cms_admin_user_is_disabled',
            sprintf(__('%s is disabled; a disabled account gets no password reset.', 'cms-admin-companion'), $user->user_login),
            ['status' => 409]
        );
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
