<?php
/**
 * Grows a seeded sandbox into a "news site" for the large-site benchmark: +20,000 tags,
 * +2,000 categories in three levels, +5,000 users (editors among them, registration dates
 * spread over 2023–2026), +10,000 posts (published, drafts, pending, private; titles
 * "Huge Post 00001" …, dated 2024–2026). Rows go in with multi-row INSERTs through $wpdb (one call per 500
 * rows): wp_insert_term()/wp_insert_user() would take minutes (term checks, password hashing).
 * Deterministic. Environment: CMS_SANDBOX_WP_DIR, CMS_SANDBOX_URL. Prints a JSON summary.
 */
require __DIR__ . '/../sandbox/wp-cli-bootstrap.php';

$huge_started = microtime(true);

/** Inserts terms (name, slug, taxonomy, parent) and returns their ids in order. */
function huge_insert_terms(array $terms): array
{
    global $wpdb;
    $ids = [];
    foreach (array_chunk($terms, 500) as $chunk) {
        $values = [];
        foreach ($chunk as $t) $values[] = $wpdb->prepare('(%s, %s, 0)', $t[0], $t[1]);
        $wpdb->query("INSERT INTO {$wpdb->terms} (name, slug, term_group) VALUES " . implode(',', $values));
        $first = (int) $wpdb->insert_id; // MariaDB: the id of the chunk's first row, ids consecutive
        $tax = [];
        foreach ($chunk as $i => $t) {
            $ids[] = $first + $i;
            $tax[] = $wpdb->prepare('(%d, %s, %s, %d, 0)', $first + $i, $t[2], '', $t[3]);
        }
        $wpdb->query("INSERT INTO {$wpdb->term_taxonomy} (term_id, taxonomy, description, parent, count) VALUES " . implode(',', $tax));
    }
    return $ids;
}

$wpdb->query('START TRANSACTION');
$tags = [];
for ($i = 1; $i <= 20000; $i++) $tags[] = [sprintf('Huge Tag %05d', $i), sprintf('huge-tag-%05d', $i), 'post_tag', 0];
huge_insert_terms($tags);

// Three levels: 100 sections, 400 topics under them, 1,500 subtopics under the topics.
$level1 = huge_insert_terms(array_map(fn ($i) => [sprintf('Section %03d', $i), sprintf('section-%03d', $i), 'category', 0], range(1, 100)));
$level2 = huge_insert_terms(array_map(fn ($i) => [sprintf('Topic %03d', $i), sprintf('topic-%03d', $i), 'category', $level1[$i % 100]], range(1, 400)));
huge_insert_terms(array_map(fn ($i) => [sprintf('Subtopic %04d', $i), sprintf('subtopic-%04d', $i), 'category', $level2[$i % 400]], range(1, 1500)));
delete_option('category_children'); // WordPress's cached hierarchy (_get_term_hierarchy) is stale now

$roles = ['subscriber', 'subscriber', 'subscriber', 'contributor', 'author', 'editor'];
$hash = wp_hash_password(wp_generate_password(24)); // one hash for all: nobody logs in as them
for ($start = 1; $start <= 5000; $start += 500) {
    $users = [];
    for ($i = $start; $i < $start + 500; $i++) {
        $registered = gmdate('Y-m-d H:i:s', 1672531200 + $i * 22000); // 2023-01-01 … 2026-06
        $users[] = $wpdb->prepare('(%s, %s, %s, %s, %s, %s)', sprintf('huge_user_%04d', $i), $hash, sprintf('huge-user-%04d', $i), sprintf('huge_user_%04d@example.com', $i), $registered, sprintf('Huge User %04d', $i));
    }
    $wpdb->query("INSERT INTO {$wpdb->users} (user_login, user_pass, user_nicename, user_email, user_registered, display_name) VALUES " . implode(',', $users));
    $first = (int) $wpdb->insert_id;
    $meta = [];
    foreach (range(0, 499) as $k) {
        $role = $roles[($start + $k) % count($roles)];
        $meta[] = $wpdb->prepare('(%d, %s, %s)', $first + $k, $wpdb->prefix . 'capabilities', serialize([$role => true]));
        $meta[] = $wpdb->prepare('(%d, %s, %s)', $first + $k, $wpdb->prefix . 'user_level', $role === 'editor' ? '7' : ($role === 'author' ? '2' : ($role === 'contributor' ? '1' : '0')));
        $meta[] = $wpdb->prepare('(%d, %s, %s)', $first + $k, 'nickname', sprintf('huge_user_%04d', $start + $k));
    }
    $wpdb->query("INSERT INTO {$wpdb->usermeta} (user_id, meta_key, meta_value) VALUES " . implode(',', $meta));
}
// Posts: one author, four statuses in turn, a day apart backwards from mid-2026.
$author = (int) get_users(['role' => 'administrator', 'number' => 1, 'fields' => 'ID'])[0];
$statuses = ['publish', 'draft', 'pending', 'private'];
for ($start = 1; $start <= 10000; $start += 500) {
    $posts = [];
    for ($i = $start; $i < $start + 500; $i++) {
        $date = gmdate('Y-m-d H:i:s', 1782000000 - $i * 8640);
        $title = sprintf('Huge Post %05d', $i);
        $posts[] = $wpdb->prepare(
            "(%d, %s, %s, %s, %s, '', %s, 'open', 'open', %s, '', '', %s, %s, '', 0, '', 0, 'post', '', 0)",
            $author, $date, $date, "Story number $i of the news site, about section " . ($i % 100) . '.', $title,
            $statuses[$i % 4], sprintf('huge-post-%05d', $i), $date, $date,
        );
    }
    $wpdb->query("INSERT INTO {$wpdb->posts} (post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, comment_status, ping_status, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count) VALUES " . implode(',', $posts));
}
$wpdb->query('COMMIT');
wp_cache_flush();

cms_sandbox_output([
    'tags' => (int) wp_count_terms(['taxonomy' => 'post_tag', 'hide_empty' => false]),
    'categories' => (int) wp_count_terms(['taxonomy' => 'category', 'hide_empty' => false]),
    'users' => (int) count_users()['total_users'],
    'posts' => (int) array_sum((array) wp_count_posts('post')),
    'seconds' => round(microtime(true) - $huge_started, 2),
]);
