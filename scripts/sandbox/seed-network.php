<?php
/**
 * The network's sites and users (run once, right after install-network.php, with MULTISITE on):
 * three sites, users who belong to several of them with a different role on each, and one
 * super admin (`admin`, who installed the network and administers every site). Kept in the
 * `installed` snapshot, so `site reset` comes back to exactly this network.
 *
 *   sports: admin administrator, dave administrator, bob editor, carla author
 *   news:   admin administrator, erin administrator, carla editor, bob author, ana contributor
 *   arts:   admin administrator, erin subscriber
 *   main:   admin administrator, bob subscriber
 *
 * Environment: CMS_SANDBOX_WP_DIR, CMS_SANDBOX_URL. Prints {"sites": [{slug, id, url}], "users": {login: id}}.
 */
require __DIR__ . '/wp-cli-bootstrap.php';

if (!is_multisite()) {
    cms_sandbox_fail('seed-network.php needs MULTISITE in wp-config.php');
}
wp_set_current_user(1);
$cms_network = get_network();
// Application passwords are only checked once "in use" is set, a network option on a network:
// the admin's was created (install.php) while the flag lived in the single site's options.
// https://developer.wordpress.org/reference/classes/wp_application_passwords/is_in_use/
update_network_option($cms_network->id, 'using_application_passwords', true);

$cms_users = [];
foreach (['ana', 'bob', 'carla', 'dave', 'erin'] as $cms_login) {
    // wpmu_create_user(): an account with no role on any site until it is added to one.
    $cms_id = wpmu_create_user($cms_login, wp_generate_password(24), "$cms_login@example.com");
    if (!$cms_id) {
        cms_sandbox_fail("cannot create user $cms_login");
    }
    wp_update_user(['ID' => $cms_id, 'display_name' => ucfirst($cms_login), 'first_name' => ucfirst($cms_login)]);
    $cms_users[$cms_login] = (int) $cms_id;
}

$cms_plan = [
    'sports' => ['Sports', ['dave' => 'administrator', 'bob' => 'editor', 'carla' => 'author']],
    'news' => ['News', ['erin' => 'administrator', 'carla' => 'editor', 'bob' => 'author', 'ana' => 'contributor']],
    'arts' => ['Arts', ['erin' => 'subscriber']],
];
// Posts per site and author, so removing someone from a site has content to hand over.
$cms_posts = ['sports' => ['bob' => 2, 'carla' => 1, 'dave' => 1], 'news' => ['bob' => 2, 'carla' => 1, 'erin' => 1]];

$cms_sites = [['slug' => '', 'id' => 1, 'url' => home_url()]];
add_user_to_blog(1, $cms_users['bob'], 'subscriber');
foreach ($cms_plan as $cms_slug => [$cms_title, $cms_members]) {
    $cms_blog = wp_insert_site([
        'domain' => $cms_network->domain,
        'path' => $cms_network->path . $cms_slug . '/',
        'network_id' => $cms_network->id,
        'title' => $cms_title,
        'user_id' => 1,
        'options' => ['public' => 1],
    ]);
    if (is_wp_error($cms_blog)) {
        cms_sandbox_fail("cannot create site $cms_slug: " . $cms_blog->get_error_message());
    }
    // WordPress 6.1 runs a new site's domain through sanitize_user() (wp_normalize_site_data()),
    // which drops the port's colon ("127.0.0.19201"): put the network's domain back, and the URLs.
    if (get_site($cms_blog)->domain !== $cms_network->domain) {
        $wpdb->update($wpdb->blogs, ['domain' => $cms_network->domain], ['blog_id' => $cms_blog]);
        clean_blog_cache($cms_blog);
    }
    switch_to_blog($cms_blog);
    $cms_url = untrailingslashit('http://' . $cms_network->domain . $cms_network->path . $cms_slug . '/');
    update_option('home', $cms_url);
    update_option('siteurl', $cms_url);
    // Pretty permalinks, so the site's REST root is /<slug>/wp-json/; its rules are built on first request.
    update_option('permalink_structure', '/%postname%/');
    delete_option('rewrite_rules');
    foreach ($cms_members as $cms_login => $cms_role) {
        add_user_to_blog($cms_blog, $cms_users[$cms_login], $cms_role);
    }
    foreach ($cms_posts[$cms_slug] ?? [] as $cms_login => $cms_count) {
        for ($i = 1; $i <= $cms_count; $i++) {
            wp_insert_post([
                'post_title' => ucfirst($cms_login) . " on $cms_title #$i",
                'post_content' => 'Seeded network post.',
                'post_status' => 'publish',
                'post_author' => $cms_users[$cms_login],
            ]);
        }
    }
    $cms_sites[] = ['slug' => $cms_slug, 'id' => (int) $cms_blog, 'url' => home_url()];
    restore_current_blog();
}
update_option('permalink_structure', '/%postname%/');
delete_option('rewrite_rules');

cms_sandbox_output(['sites' => $cms_sites, 'users' => $cms_users]);
