<?php
/**
 * Plugin Name:       CMS Admin Companion
 * Description:       What cms-admin-toolkit needs beyond WordPress's REST API: a disabled state for user accounts, a password-reset endpoint, roles and capabilities to read and edit (0.6.0), which objects hold each term and WordPress's own recount (0.6.0), login sessions, each account's last login (0.7.0), every account's application passwords in one listing, and guards that keep an account from editing, promoting, disabling or deleting a stronger one, and on a multisite network its users, memberships and super admins (namespace cms-admin/v1).
 * Version:           0.7.0
 * Requires at least: 6.1
 * Requires PHP:      8.0
 * Network:           true
 * License:           MIT
 * Text Domain:       cms-admin-companion
 *
 * WordPress has no "disabled" account, no REST route that starts a password reset and no
 * REST route that lists roles, so the toolkit would otherwise have to fake them (random
 * passwords, role edits). See docs/users.md in cms-admin-toolkit.
 */

if (!defined('ABSPATH')) {
    exit;
}

// Loaded twice (plugin and mu-plugin loader both present): the first copy wins.
if (defined('CMS_ADMIN_COMPANION_VERSION')) {
    return;
}

define('CMS_ADMIN_COMPANION_VERSION', '0.7.0');
define('CMS_ADMIN_COMPANION_NAMESPACE', 'cms-admin/v1');

require_once __DIR__ . '/includes/disabled-users.php';
require_once __DIR__ . '/includes/capability-maps.php';
require_once __DIR__ . '/includes/account-guards.php';
require_once __DIR__ . '/includes/capability-guards.php';
require_once __DIR__ . '/includes/rest-routes.php';
require_once __DIR__ . '/includes/password-reset.php';
require_once __DIR__ . '/includes/post-terms.php';
require_once __DIR__ . '/includes/post-terms-read.php';
require_once __DIR__ . '/includes/sessions.php';
require_once __DIR__ . '/includes/offboarding.php';
require_once __DIR__ . '/includes/network.php';
require_once __DIR__ . '/includes/app-passwords.php';
require_once __DIR__ . '/includes/term-meta.php';
require_once __DIR__ . '/includes/roles-editor.php';
require_once __DIR__ . '/includes/role-effects.php';
require_once __DIR__ . '/includes/term-cleanup.php';
require_once __DIR__ . '/includes/term-bulk.php';
require_once __DIR__ . '/includes/new-user-email.php';
require_once __DIR__ . '/includes/term-duplicates.php';
require_once __DIR__ . '/includes/request-user.php';
require_once __DIR__ . '/includes/last-login.php';
require_once __DIR__ . '/includes/account-bulk.php';
require_once __DIR__ . '/includes/account-lookup.php';
require_once __DIR__ . '/includes/abilities-dry-run.php';

/**
 * The version in the REST index (`GET /wp-json/?_fields=cms_admin_companion`), so the toolkit
 * can tell which routes behave as it needs (0.1.0 did not report it).
 * https://developer.wordpress.org/reference/hooks/rest_index/
 */
add_filter('rest_index', static function (WP_REST_Response $response): WP_REST_Response {
    $data = $response->get_data();
    // `network`: a multisite network, where the toolkit offers its network tools (0.5.0).
    $data['cms_admin_companion'] = ['version' => CMS_ADMIN_COMPANION_VERSION, 'network' => is_multisite()];
    // `super_admin` (0.5.1): whether the signed-in account may use the network routes, so the
    // toolkit lists the network tools only to a super admin (a site administrator gets the
    // single-site list, as wp-admin shows Network Admin only to super admins).
    if (is_multisite() && is_user_logged_in()) {
        $data['cms_admin_companion']['super_admin'] = is_super_admin();
    }
    // WordPress's own version for `cms-admin sites list` (issue #38), only to an administrator:
    // the index is public, and a version tells strangers which known holes to try.
    if (current_user_can('manage_options')) {
        $data['cms_admin_companion']['wordpress'] = get_bloginfo('version');
    }
    $response->set_data($data);
    return $response;
});
