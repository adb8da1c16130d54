<?php
/**
 * A disabled state for user accounts, which WordPress does not have.
 *
 * The state lives in one protected user meta entry (leading underscore: never exposed through
 * the REST API's `meta`). A disabled account keeps its data, posts and roles; it just cannot
 * authenticate, by any of the ways WordPress core offers:
 *
 * - password logins (wp-login.php, XML-RPC): the `authenticate` filter, after core's checks;
 * - application passwords on REST requests: WordPress checks those in
 *   wp_validate_application_password() → wp_authenticate_application_password(), which is
 *   called directly, not through `authenticate`; its `wp_authenticate_application_password_errors`
 *   action is the hook that can veto a password that matched (the REST API then answers 401);
 *   https://developer.wordpress.org/reference/hooks/wp_authenticate_application_password_errors/
 * - existing login sessions: destroyed when the account is disabled (their cookies stop validating);
 * - password resets: no new reset key (`allow_password_reset`), earlier links voided;
 * - anything else a plugin plugs into `determine_current_user` (JWT, OAuth…): resolved to nobody.
 */

if (!defined('ABSPATH')) {
    exit;
}

const CMS_ADMIN_DISABLED_META = '_cms_admin_disabled';

/** The disabled state ({reason, disabled_at, disabled_by}) or null when the account is enabled. */
function cms_admin_disabled_state(int $user_id): ?array
{
    $state = get_user_meta($user_id, CMS_ADMIN_DISABLED_META, true);
    return is_array($state) ? $state : null;
}

function cms_admin_is_disabled(int $user_id): bool
{
    return null !== cms_admin_disabled_state($user_id);
}

/**
 * Disables an account and ends its sessions. Disabling an already disabled account keeps the
 * original time and author and only replaces the reason when a new one is given.
 */
function cms_admin_disable_user(WP_User $user, string $reason, int $by): array
{
    $state = cms_admin_disabled_state($user->ID);
    if (null === $state) {
        $state = ['reason' => $reason, 'disabled_at' => gmdate('c'), 'disabled_by' => $by];
    } elseif ('' !== $reason) {
        $state['reason'] = $reason;
    }
    update_user_meta($user->ID, CMS_ADMIN_DISABLED_META, $state);
    WP_Session_Tokens::get_instance($user->ID)->destroy_all();
    // A reset link sent earlier would still set a password; void it.
    global $wpdb;
    $wpdb->update($wpdb->users, ['user_activation_key' => ''], ['ID' => $user->ID]);
    clean_user_cache($user->ID);

    /** Fires after an account was disabled (or its reason changed). */
    do_action('cms_admin_user_disabled', $user->ID, $state);
    return $state;
}

/** Enables an account; returns whether it was disabled. */
function cms_admin_enable_user(WP_User $user): bool
{
    $was_disabled = cms_admin_is_disabled($user->ID);
    delete_user_meta($user->ID, CMS_ADMIN_DISABLED_META);
    if ($was_disabled) {
        /** Fires after a disabled account was enabled again. */
        do_action('cms_admin_user_enabled', $user->ID);
    }
    return $was_disabled;
}

/** For wp-login.php (HTML, with core's "Error:" prefix) or, with `$plain`, for API clients. */
function cms_admin_disabled_error(bool $plain = false): WP_Error
{
    $message = __('This account is disabled. Contact the site administrator.', 'cms-admin-companion');
    return new WP_Error(
        'cms_admin_user_disabled',
        $plain ? $message : '<strong>' . __('Error:') . '</strong> ' . $message,
        ['status' => 401]
    );
}

/**
 * Core's password checks run at priority 20 (wp_authenticate_username_password & co.), the
 * spam check at 99: only a correct password reaches here as a WP_User, so the message does
 * not tell strangers which accounts exist.
 */
add_filter(
    'authenticate',
    static function ($user) {
        if ($user instanceof WP_User && cms_admin_is_disabled($user->ID)) {
            return cms_admin_disabled_error();
        }
        return $user;
    },
    100
);

// Application passwords on REST/XML-RPC requests; the REST API answers 401 with this error.
add_action(
    'wp_authenticate_application_password_errors',
    static function (WP_Error $error, WP_User $user): void {
        if (cms_admin_is_disabled($user->ID)) {
            $disabled = cms_admin_disabled_error(true);
            $error->add($disabled->get_error_code(), $disabled->get_error_message(), $disabled->get_error_data());
        }
    },
    10,
    2
);

/**
 * In WordPress 6.1 the REST API checks for application-password errors (priority 90 of
 * `rest_authentication_errors`) before anything has resolved the user, and the cookie check at
 * 100 then treats a refused password as an anonymous visitor: the client would see public data
 * and "not logged in" instead of the reason. Resolve the user first and report the refusal.
 * https://core.trac.wordpress.org/browser/tags/6.1/src/wp-includes/rest-api.php#L1154
 */
add_filter(
    'rest_authentication_errors',
    static function ($result) {
        global $wp_rest_application_password_status;
        if (!empty($result)) {
            return $result;
        }
        is_user_logged_in();
        $status = $wp_rest_application_password_status;
        if (is_wp_error($status) && in_array('cms_admin_user_disabled', $status->get_error_codes(), true)) {
            return $status;
        }
        return $result;
    },
    95
);

// Late, after cookies and application passwords: any other way of resolving a user.
add_filter(
    'determine_current_user',
    static function ($user_id) {
        if (is_numeric($user_id) && (int) $user_id > 0 && cms_admin_is_disabled((int) $user_id)) {
            return false;
        }
        return $user_id;
    },
    100
);

/**
 * No password reset for a disabled account: get_password_reset_key() refuses, so neither the
 * lost-password form nor an administrator's "Send password reset" makes a link.
 * https://developer.wordpress.org/reference/hooks/allow_password_reset/
 */
add_filter(
    'allow_password_reset',
    static fn ($allow, $user_id) => cms_admin_is_disabled((int) $user_id) ? false : $allow,
    10,
    2
);

/**
 * The lost-password form would then say "Password reset is not allowed for this user",
 * telling anyone which accounts are disabled. Answer as for an enabled account (wp-login.php's
 * redirect to "Check your email"), and send nothing.
 */
add_action(
    'lostpassword_post',
    static function ($errors, $user_data = false): void {
        $form = did_action('login_form_lostpassword') || did_action('login_form_retrievepassword');
        if ($form && $user_data instanceof WP_User && cms_admin_is_disabled($user_data->ID)) {
            wp_safe_redirect(!empty($_REQUEST['redirect_to']) ? wp_unslash($_REQUEST['redirect_to']) : 'wp-login.php?checkemail=confirm');
            exit;
        }
    },
    PHP_INT_MAX,
    2
);

// A link made before the account was disabled is void (the key was cleared); should one
// survive anyway, the reset form answers as for any expired link.
add_action(
    'validate_password_reset',
    static function (WP_Error $errors, $user): void {
        if ($user instanceof WP_User && cms_admin_is_disabled($user->ID)) {
            $errors->add('invalidkey', __('Your password reset link appears to be invalid. Please request a new link below.'));
        }
    },
    10,
    2
);
