<?php
/**
 * Plugin Name: cms-admin-toolkit sandbox (Playground backend)
 * Description: What wp-config.php and the PHP CLI scripts do for the native sandbox, for a site run by WordPress Playground's CLI. Written into wp-content/mu-plugins/ on every `site up --backend playground`.
 *
 * The instance's data folder is mounted at /cms-sandbox-data (mail log, setup token).
 */

if (!defined('CMS_SANDBOX_MAIL_LOG')) {
    define('CMS_SANDBOX_MAIL_LOG', '/cms-sandbox-data/mail.jsonl');
}

// Application passwords need HTTPS unless the environment type is 'local', which is a
// wp-config.php constant Playground writes itself; the filter says the same.
// https://developer.wordpress.org/reference/functions/wp_is_application_passwords_available/
add_filter('wp_is_application_passwords_available', '__return_true');

/**
 * One-shot setup and seeding, run inside a request since Playground has no PHP CLI
 * for this site. Only a caller that can read the instance's token file may call it.
 */
add_action('rest_api_init', static function (): void {
    register_rest_route('cms-sandbox/v1', '/run', [
        'methods' => 'POST',
        'permission_callback' => static function (WP_REST_Request $request): bool {
            $token = @file_get_contents('/cms-sandbox-data/token');
            return is_string($token) && strlen(trim($token)) >= 32
                && hash_equals(trim($token), (string) $request->get_header('x-cms-sandbox-token'));
        },
        'callback' => static function (WP_REST_Request $request) {
            // seed.php runs in this function's scope; these are the globals it and WordPress share.
            global $wpdb, $wp_rewrite, $cms_rng;
            if (!defined('CMS_SANDBOX_IN_REQUEST')) {
                define('CMS_SANDBOX_IN_REQUEST', true);
            }
            @set_time_limit(0);
            if ($request['task'] === 'setup') {
                $user = get_user_by('id', 1);
                wp_update_user(['ID' => 1, 'user_email' => 'admin@example.com']);
                wp_set_password((string) $request['admin_password'], 1);
                update_option('blogname', 'CMS Admin Toolkit Sandbox');
                update_option('blogdescription', 'Sandbox site for cms-admin-toolkit');
                update_option('admin_email', 'admin@example.com');
                update_option('timezone_string', 'UTC');
                $wp_rewrite->set_permalink_structure('/%postname%/');
                $wp_rewrite->flush_rules(false);
                $app = WP_Application_Passwords::create_new_application_password(1, ['name' => 'cms-admin-toolkit']);
                if (is_wp_error($app)) {
                    return $app;
                }
                return ['username' => $user->user_login, 'appPassword' => $app[0]];
            }
            if ($request['task'] === 'seed') {
                ob_start();
                try {
                    require '/cms-sandbox-scripts/seed.php';
                } finally {
                    $out = trim((string) ob_get_clean());
                }
                $lines = explode("\n", $out);
                return json_decode((string) end($lines), true);
            }
            return new WP_Error('cms_sandbox_task', 'unknown task', ['status' => 400]);
        },
    ]);
});
