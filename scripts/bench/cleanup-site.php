<?php
/**
 * The clean-up benchmark's site (#51, scripts/bench/cleanup.ts): on a seeded sandbox, 5,000 tags
 * no post uses ("Prune Tag 00001" …) and 50 categories ("Migrate Cat 01" …) holding 5,000 posts
 * (100 each; published, drafts, pending, private in turn). Rows go in with multi-row INSERTs as in
 * huge-site.php; counts recomputed at the end. Prints the ids as JSON.
 */
require __DIR__ . '/../sandbox/wp-cli-bootstrap.php';

$started = microtime(true);
$tags = (int) (getenv('CMS_BENCH_CLEANUP_TAGS') ?: 5000);
$cats = (int) (getenv('CMS_BENCH_CLEANUP_CATS') ?: 50);
$posts = (int) (getenv('CMS_BENCH_CLEANUP_POSTS') ?: 5000);

/** Inserts terms (name, slug, taxonomy) and returns [term_id => term_taxonomy_id]. */
function cleanup_insert_terms(array $terms): array
{
    global $wpdb;
    $ids = [];
    foreach (array_chunk($terms, 500) as $chunk) {
        $values = array_map(fn ($t) => $wpdb->prepare('(%s, %s, 0)', $t[0], $t[1]), $chunk);
        $wpdb->query("INSERT INTO {$wpdb->terms} (name, slug, term_group) VALUES " . implode(',', $values));
        $first = (int) $wpdb->insert_id;
        $tax = [];
        foreach ($chunk as $i => $t) $tax[] = $wpdb->prepare("(%d, %s, '', 0, 0)", $first + $i, $t[2]);
        $wpdb->query("INSERT INTO {$wpdb->term_taxonomy} (term_id, taxonomy, description, parent, count) VALUES " . implode(',', $tax));
        $tt = (int) $wpdb->insert_id;
        foreach ($chunk as $i => $t) $ids[$first + $i] = $tt + $i;
    }
    return $ids;
}

$wpdb->query('START TRANSACTION');
$tag_ids = cleanup_insert_terms(array_map(fn ($i) => [sprintf('Prune Tag %05d', $i), sprintf('prune-tag-%05d', $i), 'post_tag'], range(1, $tags)));
$cat_ids = cleanup_insert_terms(array_map(fn ($i) => [sprintf('Migrate Cat %02d', $i), sprintf('migrate-cat-%02d', $i), 'category'], range(1, $cats)));
$author = (int) get_users(['role' => 'administrator', 'number' => 1, 'fields' => 'ID'])[0];
$statuses = ['publish', 'draft', 'pending', 'private'];
$tt = array_values($cat_ids);
$post_ids = [];
for ($start = 1; $start <= $posts; $start += 500) {
    $rows = [];
    $end = min($posts, $start + 499);
    for ($i = $start; $i <= $end; $i++) {
        $date = gmdate('Y-m-d H:i:s', 1782000000 - $i * 8640);
        $rows[] = $wpdb->prepare(
            "(%d, %s, %s, '', %s, '', %s, 'open', 'open', %s, '', '', %s, %s, '', 0, '', 0, 'post', '', 0)",
            $author, $date, $date, sprintf('Migrate Post %05d', $i), $statuses[$i % 4], sprintf('migrate-post-%05d', $i), $date, $date,
        );
    }
    $wpdb->query("INSERT INTO {$wpdb->posts} (post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, comment_status, ping_status, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count) VALUES " . implode(',', $rows));
    $first = (int) $wpdb->insert_id;
    $rel = [];
    for ($k = 0; $k <= $end - $start; $k++) {
        $post_ids[] = $first + $k;
        $rel[] = $wpdb->prepare('(%d, %d, 0)', $first + $k, $tt[($start + $k) % count($tt)]);
    }
    $wpdb->query("INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id, term_order) VALUES " . implode(',', $rel));
}
$wpdb->query('COMMIT');
wp_update_term_count_now($tt, 'category');
delete_option('category_children');
wp_cache_flush();

cms_sandbox_output([
    'tags' => array_keys($tag_ids),
    'categories' => array_keys($cat_ids),
    'posts' => count($post_ids),
    'seconds' => round(microtime(true) - $started, 2),
]);
