<?php
/**
 * The floors benchmark's fixtures (#61, scripts/bench/floors.ts), on a seeded sandbox, for one job
 * (CMS_FLOOR_JOB) of size CMS_FLOOR_SIZE: two like sets, A for the tool and B for the PHP loop
 * (the floor), so both do the same job on the same site. Multi-row INSERTs as in huge-site.php.
 *   set-users-role        2 × N subscribers                         → {a, b} user ids
 *   prune-terms           2 × N tags nothing uses                   → {a, b} term ids
 *   migrate-terms         2 × CMS_FLOOR_CATS categories, N posts each in one of A and one of B → {a, b, posts}
 *   find-duplicate-terms  N tags, every 80th with 1–3 other spellings, the first on posts → {tags, groups}
 *   list-users            N users of five roles                     → {users}
 */
require __DIR__ . '/../sandbox/wp-cli-bootstrap.php';

$job = (string) getenv('CMS_FLOOR_JOB');
$n = (int) (getenv('CMS_FLOOR_SIZE') ?: 1000);
$started = microtime(true);

/** Inserts terms [name, slug, taxonomy] 500 a query; [term_id => term_taxonomy_id]. */
function floor_terms(array $terms): array
{
    global $wpdb;
    $ids = [];
    foreach (array_chunk($terms, 500) as $chunk) {
        $wpdb->query("INSERT INTO {$wpdb->terms} (name, slug, term_group) VALUES " . implode(',', array_map(fn ($t) => $wpdb->prepare('(%s, %s, 0)', $t[0], $t[1]), $chunk)));
        $first = (int) $wpdb->insert_id;
        $wpdb->query("INSERT INTO {$wpdb->term_taxonomy} (term_id, taxonomy, description, parent, count) VALUES " . implode(',', array_map(fn ($k) => $wpdb->prepare("(%d, %s, '', 0, 0)", $first + $k, $chunk[$k][2]), array_keys($chunk))));
        $tt = (int) $wpdb->insert_id;
        foreach (array_keys($chunk) as $k) $ids[$first + $k] = $tt + $k;
    }
    return $ids;
}

/** Inserts users (login prefix, roles in turn) 500 a query, one password hash for all; their ids. */
function floor_users(string $prefix, int $count, array $roles): array
{
    global $wpdb;
    $hash = wp_hash_password(wp_generate_password(24));
    $ids = [];
    for ($start = 0; $start < $count; $start += 500) {
        $rows = [];
        $end = min($count, $start + 500);
        for ($i = $start; $i < $end; $i++) {
            $login = sprintf('%s_%05d', $prefix, $i);
            $rows[] = $wpdb->prepare('(%s, %s, %s, %s, %s, %s)', $login, $hash, str_replace('_', '-', $login), "$login@example.org", gmdate('Y-m-d H:i:s', 1672531200 + $i * 3600), ucwords(str_replace('_', ' ', $login)));
        }
        $wpdb->query("INSERT INTO {$wpdb->users} (user_login, user_pass, user_nicename, user_email, user_registered, display_name) VALUES " . implode(',', $rows));
        $first = (int) $wpdb->insert_id;
        $meta = [];
        for ($k = 0; $k < $end - $start; $k++) {
            $role = $roles[($start + $k) % count($roles)];
            $ids[] = $first + $k;
            $meta[] = $wpdb->prepare('(%d, %s, %s)', $first + $k, $wpdb->prefix . 'capabilities', serialize([$role => true]));
            $meta[] = $wpdb->prepare('(%d, %s, %s)', $first + $k, $wpdb->prefix . 'user_level', (string) ['subscriber' => 0, 'contributor' => 1, 'author' => 2, 'editor' => 7, 'administrator' => 10][$role]);
        }
        $wpdb->query("INSERT INTO {$wpdb->usermeta} (user_id, meta_key, meta_value) VALUES " . implode(',', $meta));
    }
    return $ids;
}

/** Inserts `count` posts of four statuses 500 a query; their ids. */
function floor_posts(int $count): array
{
    global $wpdb;
    $author = (int) get_users(['role' => 'administrator', 'number' => 1, 'fields' => 'ID'])[0];
    $statuses = ['publish', 'draft', 'pending', 'private'];
    $ids = [];
    for ($start = 0; $start < $count; $start += 500) {
        $rows = [];
        $end = min($count, $start + 500);
        for ($i = $start; $i < $end; $i++) {
            $date = gmdate('Y-m-d H:i:s', 1782000000 - $i * 8640);
            $rows[] = $wpdb->prepare("(%d, %s, %s, '', %s, '', %s, 'open', 'open', %s, '', '', %s, %s, '', 0, '', 0, 'post', '', 0)", $author, $date, $date, sprintf('Floor Post %05d', $i), $statuses[$i % 4], sprintf('floor-post-%05d', $i), $date, $date);
        }
        $wpdb->query("INSERT INTO {$wpdb->posts} (post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, comment_status, ping_status, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count) VALUES " . implode(',', $rows));
        $first = (int) $wpdb->insert_id;
        for ($k = 0; $k < $end - $start; $k++) $ids[] = $first + $k;
    }
    return $ids;
}

/** Relationships [object_id, term_taxonomy_id], 1,000 a query. */
function floor_relate(array $pairs): void
{
    global $wpdb;
    foreach (array_chunk($pairs, 1000) as $chunk) {
        $wpdb->query("INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id, term_order) VALUES " . implode(',', array_map(fn ($p) => $wpdb->prepare('(%d, %d, 0)', $p[0], $p[1]), $chunk)));
    }
}

$wpdb->query('START TRANSACTION');
$out = [];
if ('set-users-role' === $job) {
    $out = ['a' => floor_users('floor_role_a', $n, ['subscriber']), 'b' => floor_users('floor_role_b', $n, ['subscriber'])];
} elseif ('prune-terms' === $job) {
    foreach (['a', 'b'] as $set) {
        $out[$set] = array_keys(floor_terms(array_map(fn ($i) => [sprintf('Floor Prune %s %05d', strtoupper($set), $i), sprintf('floor-prune-%s-%05d', $set, $i), 'post_tag'], range(1, $n))));
    }
} elseif ('migrate-terms' === $job) {
    $cats = (int) (getenv('CMS_FLOOR_CATS') ?: 50);
    $posts = floor_posts($n);
    $pairs = [];
    foreach (['a', 'b'] as $set) {
        $terms = floor_terms(array_map(fn ($i) => [sprintf('Floor Migrate %s %02d', strtoupper($set), $i), sprintf('floor-migrate-%s-%02d', $set, $i), 'category'], range(1, $cats)));
        $out[$set] = array_keys($terms);
        $tt = array_values($terms);
        foreach ($posts as $i => $post) $pairs[] = [$post, $tt[$i % $cats]];
    }
    floor_relate($pairs);
    $out['posts'] = count($posts);
    $out['tt'] = $wpdb->get_col("SELECT term_taxonomy_id FROM {$wpdb->term_taxonomy} WHERE term_id IN (" . implode(',', array_merge($out['a'], $out['b'])) . ')');
} elseif ('find-duplicate-terms' === $job) {
    $spell = [fn ($i) => sprintf('floor tag %05d', $i), fn ($i) => sprintf('Floor-Tag %05ds', $i), fn ($i) => sprintf('FLOOR TÄG %05d', $i)];
    $rows = [];
    $first = [];
    for ($i = 1; $i <= $n; $i++) {
        $rows[] = [sprintf('Floor Tag %05d', $i), sprintf('floor-tag-%05d', $i), 'post_tag'];
        if (0 === $i % 80) {
            foreach (array_slice($spell, 0, 1 + $i / 80 % 3) as $k => $f) $rows[] = [$f($i), sprintf('floor-tag-%05d-v%d', $i, $k), 'post_tag'];
            $first[] = count($rows) - 1 - $i / 80 % 3;
        }
    }
    $tt = array_values(floor_terms($rows));
    $posts = floor_posts(200);
    $pairs = [];
    foreach ($first as $g => $row) for ($k = 0; $k <= $g % 5; $k++) $pairs[] = [$posts[($g + $k) % count($posts)], $tt[$row]];
    floor_relate($pairs);
    $out = ['tags' => count($rows), 'groups' => count($first)];
} elseif ('list-users' === $job) {
    $out = ['users' => count(floor_users('floor_list', $n, ['subscriber', 'subscriber', 'contributor', 'author', 'editor']))];
}
$wpdb->query('COMMIT');
if (isset($out['tt'])) {
    // The categories' stored counts, as WordPress keeps them (the tools read and show them).
    wp_update_term_count_now(array_map('intval', $out['tt']), 'category');
    delete_option('category_children');
    unset($out['tt']);
}
wp_cache_flush();
cms_sandbox_output($out + ['seconds' => round(microtime(true) - $started, 2)]);
