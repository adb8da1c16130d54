<?php
/**
 * Deterministic demo dataset for a freshly installed sandbox (run after a
 * reset to the `installed` snapshot, so ids are the same on every run).
 *
 * One PHP process, direct wp_insert_* calls inside one transaction with term
 * counting deferred: a few seconds instead of minutes over REST.
 * https://developer.wordpress.org/reference/functions/wp_defer_term_counting/
 *
 * Environment: CMS_SANDBOX_WP_DIR, CMS_SANDBOX_URL. Prints a JSON summary.
 */
require __DIR__ . '/wp-cli-bootstrap.php';

$cms_started = microtime(true);
$cms_data = require __DIR__ . '/seed-data.php';

/**
 * Tiny LCG with a fixed seed: the same sequence on every machine (64-bit PHP),
 * unaffected by any mt_rand()/random_int() use inside WordPress. Only the
 * high bits are used: an LCG's low bits cycle with short periods.
 */
$cms_rng = 20240601;
function cms_rand(int $min, int $max): int
{
    global $cms_rng;
    $cms_rng = ($cms_rng * 1103515245 + 12345) & 0x7fffffff;
    return $min + (($cms_rng >> 16) % ($max - $min + 1));
}

/** Pick $n distinct elements of $list (deterministically). */
function cms_pick(array $list, int $n): array
{
    $picked = [];
    while (count($picked) < min($n, count($list))) {
        $picked[$list[cms_rand(0, count($list) - 1)]] = true;
    }
    return array_keys($picked);
}

function cms_term(string $name, string $taxonomy, array $args = []): int
{
    $res = wp_insert_term($name, $taxonomy, $args);
    if (is_wp_error($res)) {
        cms_sandbox_fail("wp_insert_term($name, $taxonomy): " . $res->get_error_message());
    }
    return (int) $res['term_id'];
}

// Admin context: no kses filtering of seeded content, and hooks that check caps behave as for an admin.
wp_set_current_user(1);
wp_defer_term_counting(true);
$wpdb->query('START TRANSACTION');

// ---- Categories (nested; leaves get the posts).
$cms_categories = [];   // name => term_id
$cms_leaf_categories = [];
$cms_add_categories = static function (array $tree, int $parent) use (&$cms_add_categories, &$cms_categories, &$cms_leaf_categories): void {
    foreach ($tree as $name => [$description, $children]) {
        $id = cms_term($name, 'category', ['description' => $description, 'parent' => $parent]);
        $cms_categories[$name] = $id;
        if ($children) {
            $cms_add_categories($children, $id);
        } elseif ($parent !== 0) {
            $cms_leaf_categories[] = $name;
        }
    }
};
$cms_add_categories($cms_data['categories'], 0);

// ---- Tags (every 4th with a description).
$cms_tags = [];
foreach ($cms_data['tags'] as $i => $name) {
    $cms_tags[$name] = cms_term($name, 'post_tag', $i % 4 === 0 ? ['description' => "Posts about $name."] : []);
}
$cms_used_tags = array_slice($cms_data['tags'], 0, count($cms_data['tags']) - $cms_data['unusedTags']);

// ---- Genres (custom taxonomy registered by the sandbox mu-plugin).
$cms_genres = [];
foreach ($cms_data['genres'] as $name) {
    $cms_genres[$name] = cms_term($name, 'genre', ['description' => "$name writing."]);
}

// ---- Users: 24 plus the admin, all five roles, registered 2024-01 .. 2026-10.
$cms_users = ['administrator' => [1], 'editor' => [], 'author' => [], 'contributor' => [], 'subscriber' => []];
$cms_n = 0;
foreach ($cms_data['people'] as $role => $names) {
    foreach ($names as $full) {
        [$first, $last] = explode(' ', $full, 2);
        $login = strtolower($first[0] . preg_replace('/[^a-z]/i', '', $last));
        $registered = gmdate('Y-m-d H:i:s', strtotime('2024-01-15 09:30:00 UTC') + $cms_n * 37 * DAY_IN_SECONDS + $cms_n * 3607);
        $id = wp_insert_user([
            'user_login' => $login,
            'user_pass' => "sandbox-$login-password",
            'user_email' => strtolower(str_replace(' ', '.', preg_replace('/[^A-Za-z ]/', '', $full))) . '@example.com',
            'first_name' => $first,
            'last_name' => $last,
            'display_name' => $full,
            'nickname' => $first,
            'description' => "$full ($role) on the sandbox site.",
            'user_url' => $cms_n % 3 === 0 ? "https://example.com/~$login" : '',
            'role' => $role,
            'user_registered' => $registered,
        ]);
        if (is_wp_error($id)) {
            cms_sandbox_fail("wp_insert_user($login): " . $id->get_error_message());
        }
        $cms_users[$role][] = $id;
        $cms_n++;
    }
}
$cms_publishers = array_merge($cms_users['administrator'], $cms_users['editor'], $cms_users['author']);
$cms_writers = array_merge($cms_publishers, $cms_users['contributor']);

// ---- Posts across publish/draft/pending/private/future, each with categories and tags.
$cms_titles = [];
$cms_counts = [];
$cms_sticky = [];
$cms_post_ids = [];
for ($i = 0; $i < $cms_data['postCount']; $i++) {
    $status = $cms_data['statusCycle'][$i % count($cms_data['statusCycle'])];
    $primary = $cms_leaf_categories[cms_rand(0, count($cms_leaf_categories) - 1)];
    $tags = cms_pick($cms_used_tags, cms_rand(2, 5));
    $topic = cms_rand(0, 1) ? $primary : $tags[0];
    $title = sprintf($cms_data['titleTemplates'][cms_rand(0, count($cms_data['titleTemplates']) - 1)], $topic);
    $cms_titles[$title] = ($cms_titles[$title] ?? 0) + 1;
    if ($cms_titles[$title] > 1) {
        $title .= ' (part ' . $cms_titles[$title] . ')';
    }
    $categories = [$cms_categories[$primary]];
    if (cms_rand(0, 2) === 0) {
        $categories[] = $cms_categories[$cms_leaf_categories[cms_rand(0, count($cms_leaf_categories) - 1)]];
    }
    $date = $status === 'future'
        ? gmdate('Y-m-d H:i:s', strtotime('2030-01-01 08:00:00 UTC') + $i * DAY_IN_SECONDS)
        : gmdate('Y-m-d H:i:s', strtotime('2023-01-02 10:00:00 UTC') + $i * 4 * DAY_IN_SECONDS + cms_rand(0, 36000));
    $authors = in_array($status, ['draft', 'pending'], true) ? $cms_writers : $cms_publishers;
    $id = wp_insert_post([
        'post_type' => 'post',
        'post_status' => $status,
        'post_title' => $title,
        'post_content' => "<!-- wp:paragraph -->\n<p>" . esc_html("$title. A sandbox article filed under $primary, tagged " . implode(', ', $tags) . '.') . "</p>\n<!-- /wp:paragraph -->",
        'post_excerpt' => "About $topic.",
        'post_author' => $authors[cms_rand(0, count($authors) - 1)],
        'post_date' => $date,
        'post_date_gmt' => $date,
        'post_category' => array_values(array_unique($categories)),
        'tags_input' => $tags,
        'comment_status' => 'open',
    ], true);
    if (is_wp_error($id)) {
        cms_sandbox_fail("wp_insert_post($title): " . $id->get_error_message());
    }
    if ($primary === 'Books' || cms_rand(0, 3) === 0) {
        wp_set_object_terms($id, cms_pick($cms_data['genres'], cms_rand(1, 2)), 'genre');
    }
    if ($status === 'publish' && count($cms_sticky) < 3 && $i % 17 === 0) {
        $cms_sticky[] = $id;
        stick_post($id);
    }
    $cms_counts[$status] = ($cms_counts[$status] ?? 0) + 1;
    $cms_post_ids[] = $id;
}
// post_modified is "now" on insert; pin it to post_date so every run yields identical rows.
$wpdb->query("UPDATE {$wpdb->posts} SET post_modified = post_date, post_modified_gmt = post_date_gmt WHERE ID IN (" . implode(',', $cms_post_ids) . ')');

// ---- Shop fixture: product categories (two levels) and products of several statuses.
$cms_product_cats = [];
foreach ($cms_data['productCategories'] as $top => $children) {
    $cms_product_cats[$top] = cms_term($top, 'product_cat', ['description' => "$top products."]);
    foreach ($children as $child) {
        $cms_product_cats[$child] = cms_term($child, 'product_cat', ['parent' => $cms_product_cats[$top]]);
    }
}
$cms_p = 0;
foreach ($cms_data['products'] as $title => [$status, $cats]) {
    $date = gmdate('Y-m-d H:i:s', strtotime('2025-03-01 09:00:00 UTC') + $cms_p * 3 * DAY_IN_SECONDS);
    $id = wp_insert_post([
        'post_type' => 'product',
        'post_status' => $status,
        'post_title' => $title,
        'post_content' => "<!-- wp:paragraph -->\n<p>" . esc_html("$title, from the sandbox shop.") . "</p>\n<!-- /wp:paragraph -->",
        'post_author' => 1,
        'post_date' => $date,
        'post_date_gmt' => $date,
    ], true);
    if (is_wp_error($id)) {
        cms_sandbox_fail("wp_insert_post($title): " . $id->get_error_message());
    }
    wp_set_object_terms($id, array_map(static fn ($c) => $cms_product_cats[$c], $cats), 'product_cat');
    $wpdb->query($wpdb->prepare("UPDATE {$wpdb->posts} SET post_modified = post_date, post_modified_gmt = post_date_gmt WHERE ID = %d", $id));
    $cms_p++;
}

// ---- Extra genres, each on a few posts (every 7th post from an offset).
$cms_offset = 0;
foreach ($cms_data['extraGenres'] as $name => $count) {
    $cms_genres[$name] = cms_term($name, 'genre', ['description' => "$name writing."]);
    for ($k = 0; $k < $count; $k++) {
        wp_add_object_terms($cms_post_ids[$cms_offset + $k * 7 + 3], $cms_genres[$name], 'genre');
    }
    $cms_offset += 50;
}

wp_defer_term_counting(false); // recounts every term touched above
$wpdb->query('COMMIT');

cms_sandbox_output([
    'categories' => count($cms_categories),
    'tags' => count($cms_tags),
    'genres' => count($cms_genres),
    'products' => count($cms_data['products']),
    'product_categories' => count($cms_product_cats),
    'users' => $cms_n,
    'posts' => $cms_counts,
    'seconds' => round(microtime(true) - $cms_started, 2),
]);
