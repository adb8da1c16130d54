<?php
/**
 * The floors (#61, scripts/bench/floors.ts): WordPress doing a bulk job itself in this one PHP
 * process, with its own functions, as a WP-CLI command would (WP-CLI is not installable here; this
 * loop stands in for it). Input: CMS_FLOOR_JOB and the JSON file CMS_FLOOR_INPUT. Prints
 * {ms, cpu_ms, done}: the loop's wall time and this process's CPU (user + system) during it,
 * WordPress's start-up not counted (a WP-CLI command pays it once too).
 */
require __DIR__ . '/../sandbox/wp-cli-bootstrap.php';
require_once ABSPATH . 'wp-admin/includes/user.php';

$job = (string) getenv('CMS_FLOOR_JOB');
$input = json_decode((string) file_get_contents((string) getenv('CMS_FLOOR_INPUT')), true);
$cpu = static function (): float {
    $r = getrusage();
    return ($r['ru_utime.tv_sec'] + $r['ru_stime.tv_sec']) * 1000 + ($r['ru_utime.tv_usec'] + $r['ru_stime.tv_usec']) / 1000;
};
$cpu0 = $cpu();
$t0 = microtime(true);
$done = 0;

if ('import-users' === $job) {
    // What import-users asks of WordPress per row: the account (a random password: bcrypt, WordPress
    // 6.8+) and its new-user email.
    $ids = [];
    foreach ($input['rows'] as $row) {
        $id = wp_insert_user($row + ['user_pass' => wp_generate_password(24)]);
        if (is_wp_error($id)) {
            fwrite(STDERR, $id->get_error_message() . "\n");
            continue;
        }
        wp_send_new_user_notifications($id, 'user');
        $ids[] = $id;
    }
    $done = count($ids);
    file_put_contents((string) getenv('CMS_FLOOR_OUTPUT'), json_encode($ids));
} elseif ('undo-import-users' === $job) {
    foreach ($input['ids'] as $id) $done += wp_delete_user((int) $id) ? 1 : 0;
} elseif ('set-users-role' === $job) {
    foreach ($input['ids'] as $id) {
        (new WP_User((int) $id))->set_role((string) $input['role']);
        $done++;
    }
} elseif ('prune-terms' === $job) {
    foreach ($input['ids'] as $id) $done += true === wp_delete_term((int) $id, 'post_tag') ? 1 : 0;
} elseif ('migrate-terms' === $job) {
    // `wp term migrate`: the term made (or found) in the other taxonomy, given to every object, the old one deleted.
    foreach ($input['ids'] as $id) {
        $term = get_term((int) $id, 'category');
        $made = term_exists($term->slug, 'post_tag') ?: wp_insert_term($term->name, 'post_tag', ['slug' => $term->slug, 'description' => $term->description]);
        $tag = (int) $made['term_id'];
        foreach (get_objects_in_term((int) $id, 'category') as $object) wp_set_object_terms((int) $object, [$tag], 'post_tag', true);
        wp_delete_term((int) $id, 'category');
        $done++;
    }
} elseif ('find-duplicate-terms' === $job) {
    // One SQL aggregate (every term with the objects holding it), then the grouping.
    $rows = $wpdb->get_results(
        "SELECT t.term_id, t.name, COUNT(DISTINCT tr.object_id) AS objects FROM {$wpdb->terms} t
        JOIN {$wpdb->term_taxonomy} tt ON tt.term_id = t.term_id
        LEFT JOIN {$wpdb->term_relationships} tr ON tr.term_taxonomy_id = tt.term_taxonomy_id
        LEFT JOIN {$wpdb->posts} p ON p.ID = tr.object_id AND p.post_status <> 'auto-draft'
        WHERE tt.taxonomy = 'post_tag' GROUP BY t.term_id",
        ARRAY_N
    );
    $keys = cms_admin_duplicate_keys(array_map(static fn ($r) => html_entity_decode($r[1], ENT_QUOTES | ENT_HTML5, 'UTF-8'), $rows));
    $groups = [];
    foreach ($rows as $i => $row) if ('' !== $keys[$i]) $groups[$keys[$i]][] = [(int) $row[0], (int) $row[2]];
    $done = count(array_filter($groups, static fn ($g) => count($g) > 1));
} elseif ('list-users' === $job) {
    // What list-users answers per account, for every account.
    foreach (get_users(['number' => -1, 'orderby' => 'ID']) as $user) {
        $row = ['id' => $user->ID, 'username' => $user->user_login, 'name' => $user->display_name, 'email' => $user->user_email, 'roles' => $user->roles, 'registered' => $user->user_registered];
        $done += $row['id'] ? 1 : 0;
    }
}

cms_sandbox_output(['ms' => round((microtime(true) - $t0) * 1000, 1), 'cpu_ms' => round($cpu() - $cpu0, 1), 'done' => $done]);
