<?php
/**
 * Non-interactive WordPress install for a sandbox instance (one PHP process).
 *
 * Environment: CMS_SANDBOX_WP_DIR, CMS_SANDBOX_URL, CMS_SANDBOX_ADMIN_USER,
 * CMS_SANDBOX_ADMIN_EMAIL, CMS_SANDBOX_ADMIN_PASSWORD (env, not argv, so it
 * never shows up in `ps`). Prints {"userId":..,"appPassword":".."} on stdout.
 */

// Skips the "not installed" redirect in wp-settings.php. https://developer.wordpress.org/reference/functions/wp_not_installed/
define('WP_INSTALLING', true);
require __DIR__ . '/wp-cli-bootstrap.php';

/**
 * wp_install() mails the new admin through wp_new_blog_notification(), which
 * upgrade.php only defines if it does not exist yet ("pluggable"), so this
 * no-op wins. https://developer.wordpress.org/reference/functions/wp_new_blog_notification/
 */
function wp_new_blog_notification($blog_title, $blog_url, $user_id, $password)
{
}

require_once ABSPATH . 'wp-admin/includes/upgrade.php';

if (is_blog_installed()) {
    cms_sandbox_fail('WordPress is already installed in this database');
}

// wp_install() probes pretty permalinks with loopback HTTP requests
// (wp_install_maybe_enable_pretty_permalinks()); nothing listens yet, so
// short-circuit HTTP instead of waiting, and set the structure ourselves.
add_filter('pre_http_request', static fn () => new WP_Error('cms_sandbox', 'no HTTP during install'));

$cms_user = getenv('CMS_SANDBOX_ADMIN_USER') ?: 'admin';
$cms_result = wp_install(
    'CMS Admin Toolkit Sandbox',
    $cms_user,
    getenv('CMS_SANDBOX_ADMIN_EMAIL') ?: 'admin@example.com',
    true,
    '',
    wp_slash((string) getenv('CMS_SANDBOX_ADMIN_PASSWORD'))
);
if (is_wp_error($cms_result)) {
    cms_sandbox_fail('wp_install failed: ' . $cms_result->get_error_message());
}
$cms_user_id = (int) $cms_result['user_id'];

update_option('blogdescription', 'Sandbox site for cms-admin-toolkit');
update_option('timezone_string', 'UTC');
$wp_rewrite->set_permalink_structure('/%postname%/');
$wp_rewrite->flush_rules(false); // soft flush: rewrite_rules option only, php -S has no .htaccess

$cms_app = WP_Application_Passwords::create_new_application_password($cms_user_id, ['name' => 'cms-admin-toolkit']);
if (is_wp_error($cms_app)) {
    cms_sandbox_fail('cannot create application password: ' . $cms_app->get_error_message());
}

cms_sandbox_output(['userId' => $cms_user_id, 'appPassword' => $cms_app[0]]);
