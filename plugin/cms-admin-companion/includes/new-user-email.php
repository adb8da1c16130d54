<?php
/**
 * POST cms-admin/v1/users/{id}/welcome (0.6.0): WordPress's own new-user email, the one
 * wp-admin's "Add New User" sends (wp_new_user_notification() to the user): the login name
 * and a link to set a password. The toolkit creates accounts without a password it knows
 * (docs/users.md), so this is how a new person gets in. Batchable, for bulk imports.
 * https://developer.wordpress.org/reference/functions/wp_new_user_notification/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/users/(?P<id>\d+)/welcome', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_rest_welcome',
        'permission_callback' => 'cms_admin_rest_can_edit_user',
        'allow_batch' => ['v1' => true],
        'args' => ['id' => ['type' => 'integer', 'minimum' => 1, 'required' => true]],
    ]);
});

function cms_admin_rest_welcome(WP_REST_Request $request)
{
    $user = cms_admin_rest_user($request);
    if (is_wp_error($user)) {
        return $user;
    }
    $refused = cms_admin_refuse_stronger_account($user, 'email a password link to');
    if ($refused) {
        return $refused;
    }
    if (cms_admin_is_disabled($user->ID)) {
        return new WP_Error(
            'cms_admin_user_is_disabled',
            sprintf(__('%s is disabled; a disabled account gets no password link.', 'cms-admin-companion'), $user->user_login),
            ['status' => 409]
        );
    }
    /** The same filter wp_new_user_notification() asks; a site that turned the email off says so. */
    if (!apply_filters('wp_send_new_user_notification_to_user', true, $user)) {
        return new WP_Error(
            'cms_admin_new_user_email_off',
            __('This site does not send the new-user email (wp_send_new_user_notification_to_user).', 'cms-admin-companion'),
            ['status' => 409]
        );
    }
    $failed = null;
    $catch = static function (WP_Error $error) use (&$failed): void {
        $failed = $error;
    };
    add_action('wp_mail_failed', $catch);
    wp_new_user_notification($user->ID, null, 'user');
    remove_action('wp_mail_failed', $catch);
    if ($failed) {
        return cms_admin_rest_error($failed, 500);
    }
    return [
        'id' => $user->ID,
        'username' => $user->user_login,
        'sent_to' => $user->user_email,
        'expires_in_seconds' => (int) apply_filters('password_reset_expiration', DAY_IN_SECONDS),
    ];
}
