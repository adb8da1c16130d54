<?php
/**
 * Turn a freshly installed sandbox into a subdirectory multisite network (after install.php,
 * while wp-config.php still describes a single site), as `wp core multisite-convert` does:
 * create the network tables, then the network row and its options. site.ts then rewrites
 * wp-config.php with MULTISITE and runs seed-network.php.
 * https://developer.wordpress.org/advanced-administration/multisite/create-network/
 *
 * Environment: CMS_SANDBOX_WP_DIR, CMS_SANDBOX_URL. Prints {"domain": ..}.
 */
require __DIR__ . '/wp-cli-bootstrap.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

// A single-site wpdb knows no network tables yet; install_network() and populate_network() need their names.
foreach ($wpdb->tables('ms_global') as $cms_table => $cms_prefixed) {
    $wpdb->$cms_table = $cms_prefixed;
}
unset($cms_table, $cms_prefixed);

$cms_url = parse_url((string) getenv('CMS_SANDBOX_URL'));
// The port is part of the domain: WordPress matches a request's Host header (with its port)
// against wp_blogs.domain. https://developer.wordpress.org/reference/functions/ms_load_current_site_and_network/
$cms_domain = $cms_url['host'] . (isset($cms_url['port']) ? ':' . $cms_url['port'] : '');

install_network();
$cms_result = populate_network(1, $cms_domain, 'admin@example.com', 'CMS Admin Toolkit Network', '/', false);
if (is_wp_error($cms_result)) {
    cms_sandbox_fail('populate_network failed: ' . $cms_result->get_error_message());
}
cms_sandbox_output(['domain' => $cms_domain]);
