<?php
/**
 * Grows a seeded sandbox into a large site for `npm run bench`: +1,000 categories (some
 * nested), +2,000 posts across the five statuses, +300 users with registration dates spread
 * over 2023–2026. Deterministic; one PHP process, one transaction, deferred term counting.
 *
 * Environment: CMS_SANDBOX_WP_DIR, CMS_SANDBOX_URL. Prints a JSON summary.
 */
require __DIR__ . '/../sandbox/wp-cli-bootstrap.php';

$bench_started = microtime(true);
wp_set_current_user(1);
wp_defer_term_counting(true);
$wpdb->query('START TRANSACTION');

$bench_categories = [];
for ($i = 1; $i <= 1000; $i++) {
    // Every tenth category is a child of the one before it: listings see real hierarchies.
    $parent = ($i % 10 === 0) ? $bench_categories[$i - 2] : 0;
    $res = wp_insert_term(sprintf('Bench Category %04d', $i), 'category', ['parent' => $parent, 'description' => "Bench category $i."]);
    if (is_wp_error($res)) cms_sandbox_fail('category: ' . $res->get_error_message());
    $bench_categories[] = (int) $res['term_id'];
}

$bench_tags = [];
for ($i = 1; $i <= 200; $i++) {
    $res = wp_insert_term(sprintf('bench-tag-%03d', $i), 'post_tag');
    if (is_wp_error($res)) cms_sandbox_fail('tag: ' . $res->get_error_message());
    $bench_tags[] = (int) $res['term_id'];
}

$bench_statuses = ['publish', 'publish', 'draft', 'pending', 'private', 'future'];
for ($i = 1; $i <= 2000; $i++) {
    $status = $bench_statuses[$i % count($bench_statuses)];
    $date = $status === 'future' ? sprintf('2031-%02d-%02d 10:00:00', 1 + $i % 12, 1 + $i % 28) : sprintf('2025-%02d-%02d 09:%02d:00', 1 + $i % 12, 1 + $i % 28, $i % 60);
    $id = wp_insert_post([
        'post_title' => "Bench post $i",
        'post_content' => "Body of bench post $i.",
        'post_status' => $status,
        'post_date' => $date,
        'post_author' => 1,
        'post_category' => [$bench_categories[$i % 1000], $bench_categories[($i * 7) % 1000]],
        'tags_input' => [$bench_tags[$i % 200]],
    ], true);
    if (is_wp_error($id)) cms_sandbox_fail('post: ' . $id->get_error_message());
}

$bench_roles = ['subscriber', 'subscriber', 'contributor', 'author', 'editor'];
for ($i = 1; $i <= 300; $i++) {
    $id = wp_insert_user([
        'user_login' => sprintf('bench_user_%03d', $i),
        'user_email' => sprintf('bench_user_%03d@example.com', $i),
        'user_pass' => wp_generate_password(24),
        'display_name' => "Bench User $i",
        'role' => $bench_roles[$i % count($bench_roles)],
        // Spread over 2023-01-01 … 2026-06-01, so a date cutoff falls among them.
        'user_registered' => gmdate('Y-m-d H:i:s', 1672531200 + $i * 360000),
    ]);
    if (is_wp_error($id)) cms_sandbox_fail('user: ' . $id->get_error_message());
}

$wpdb->query('COMMIT');
wp_defer_term_counting(false);
cms_sandbox_output([
    'categories' => (int) wp_count_terms(['taxonomy' => 'category', 'hide_empty' => false]),
    'posts' => array_sum((array) wp_count_posts('post')),
    'users' => (int) count_users()['total_users'],
    'seconds' => round(microtime(true) - $bench_started, 2),
]);
