<?php
/**
 * Grows the sandbox network to CMS_BENCH_SITES sites and CMS_BENCH_USERS accounts for
 * `npm run bench:network` (network-users.ts). Accounts are written with direct SQL (no password
 * hashing: 5,000 wp_insert_user() calls would take minutes); each belongs to three sites with a
 * role on each, through their capabilities meta as add_user_to_blog() writes it.
 */
require dirname(__DIR__) . '/sandbox/wp-cli-bootstrap.php';

$cms_sites_want = (int) getenv('CMS_BENCH_SITES');
$cms_users_want = (int) getenv('CMS_BENCH_USERS');
$cms_network = get_network();
$cms_ids = array_map('intval', get_sites(['fields' => 'ids', 'number' => 0]));
for ($i = count($cms_ids); $i < $cms_sites_want; $i++) {
    $cms_blog = wp_insert_site(['domain' => $cms_network->domain, 'path' => "/bench$i/", 'title' => "Bench $i", 'user_id' => 1, 'network_id' => $cms_network->id]);
    if (is_wp_error($cms_blog)) {
        cms_sandbox_fail($cms_blog->get_error_message());
    }
    $wpdb->update($wpdb->blogs, ['domain' => $cms_network->domain], ['blog_id' => $cms_blog]);
    $cms_ids[] = (int) $cms_blog;
}
$cms_roles = ['subscriber', 'contributor', 'author', 'editor'];
$cms_have = (int) $wpdb->get_var("SELECT COUNT(*) FROM {$wpdb->users}");
$wpdb->query('START TRANSACTION');
for ($i = $cms_have; $i < $cms_users_want; $i++) {
    $wpdb->insert($wpdb->users, ['user_login' => "bench$i", 'user_nicename' => "bench$i", 'user_email' => "bench$i@example.com", 'user_pass' => '*', 'display_name' => "Bench User $i", 'user_registered' => gmdate('Y-m-d H:i:s')]);
    $cms_id = (int) $wpdb->insert_id;
    for ($k = 0; $k < 3; $k++) {
        $cms_blog = $cms_ids[($i * 7 + $k * 13) % count($cms_ids)];
        $cms_role = $cms_roles[($i + $k) % 4];
        $wpdb->insert($wpdb->usermeta, ['user_id' => $cms_id, 'meta_key' => $wpdb->get_blog_prefix($cms_blog) . 'capabilities', 'meta_value' => serialize([$cms_role => true])]);
    }
}
$wpdb->query('COMMIT');
cms_sandbox_output(['sites' => count($cms_ids), 'users' => (int) $wpdb->get_var("SELECT COUNT(*) FROM {$wpdb->users}")]);
