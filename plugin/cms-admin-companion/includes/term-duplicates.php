<?php
/**
 * Near-duplicate terms in one pass (0.7.0, issue #61): what find-duplicate-terms groups.
 *
 *   GET cms-admin/v1/term-duplicates?taxonomy=<slug>[&offset=0&per_page=50&snapshot=<id>]
 *       → {total, snapshot, groups: [{key, terms: [{id, name, slug, parent, posts}]}]}
 *
 * One read of the taxonomy's names, grouped here by the toolkit's own key (duplicateKey in
 * src/tools/taxonomy/find-duplicate-terms.ts, character data in duplicate-key-data.json), then
 * one aggregate of the objects holding the grouped terms only (every type and status, auto-drafts
 * aside, as term-usage counts them). Groups by key, each group's terms most used first.
 *
 * The first page keeps its result as a transient (per taxonomy, 15 minutes) under a new
 * `snapshot` id; later pages with that id are cut from it, not read again, so a listing followed
 * to its end reads the terms once and does not shift under merges made meanwhile. Another id (a
 * newer first page replaced it, or it expired) reads the terms again.
 */

if (!defined('ABSPATH')) {
    exit;
}

require_once __DIR__ . '/duplicate-key.php';

const CMS_ADMIN_DUPLICATES_TTL = 15 * MINUTE_IN_SECONDS;
/** A snapshot larger than this (serialised) is not kept: every page then reads the terms again. */
const CMS_ADMIN_DUPLICATES_MAX_BYTES = 4 * MB_IN_BYTES;

add_action('rest_api_init', static function (): void {
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/term-duplicates', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_rest_term_duplicates',
        'permission_callback' => static function (WP_REST_Request $request) {
            $object = get_taxonomy((string) $request['taxonomy']);
            return $object && current_user_can($object->cap->manage_terms);
        },
        'args' => [
            'taxonomy' => [
                'type' => 'string',
                'required' => true,
                'validate_callback' => static fn ($value) => is_string($value) && taxonomy_exists($value),
            ],
            'offset' => ['type' => 'integer', 'minimum' => 0, 'default' => 0],
            'per_page' => ['type' => 'integer', 'minimum' => 1, 'maximum' => 500, 'default' => 50],
            'snapshot' => ['type' => 'string', 'maxLength' => 64],
        ],
    ]);
});

function cms_admin_rest_term_duplicates(WP_REST_Request $request)
{
    $taxonomy = (string) $request['taxonomy'];
    $transient = 'cms_admin_dups_' . md5($taxonomy);
    $wanted = (string) $request['snapshot'];
    $snapshot = '' === $wanted ? false : get_transient($transient);
    if (!is_array($snapshot) || ($snapshot['id'] ?? null) !== $wanted) {
        $snapshot = ['id' => wp_generate_password(12, false), 'groups' => cms_admin_duplicate_groups($taxonomy)];
        if (strlen(serialize($snapshot)) <= CMS_ADMIN_DUPLICATES_MAX_BYTES) {
            set_transient($transient, $snapshot, CMS_ADMIN_DUPLICATES_TTL);
        }
    }
    $page = array_slice($snapshot['groups'], (int) $request['offset'], (int) $request['per_page']);
    $terms = static fn (array $rows) => array_map(static fn ($t) => [
        'id' => $t[0], 'name' => $t[1], 'slug' => $t[2], 'parent' => $t[3], 'posts' => $t[4],
    ], $rows);
    return rest_ensure_response([
        'total' => count($snapshot['groups']),
        'snapshot' => $snapshot['id'],
        'groups' => array_map(static fn ($g) => ['key' => $g[0], 'terms' => $terms($g[1])], $page),
    ]);
}

/**
 * Every group of two or more terms sharing a key, in the key's order (UTF-16 code units, as the
 * toolkit compares cursor keys): [[key, [[id, name, slug, parent, posts], …]], …].
 */
function cms_admin_duplicate_groups(string $taxonomy): array
{
    global $wpdb;
    $default = cms_admin_default_term($taxonomy);
    $rows = $wpdb->get_results($wpdb->prepare(
        "SELECT t.term_id, t.name, t.slug, tt.parent FROM {$wpdb->terms} t
        JOIN {$wpdb->term_taxonomy} tt ON tt.term_id = t.term_id WHERE tt.taxonomy = %s AND t.term_id <> %d",
        $taxonomy,
        $default
    ), ARRAY_N);
    $keys = cms_admin_duplicate_keys(array_map(static fn ($row) => html_entity_decode($row[1], ENT_QUOTES | ENT_HTML5, 'UTF-8'), $rows));
    $by_key = [];
    foreach ($rows as $i => $row) {
        $key = $keys[$i];
        if ('' !== $key) {
            $by_key[$key][] = [(int) $row[0], $row[1], $row[2], (int) $row[3], 0];
        }
    }
    unset($rows);
    $groups = array_filter($by_key, static fn ($terms) => count($terms) > 1);
    $posts = cms_admin_objects_per_term($taxonomy, array_merge(...array_map(
        static fn ($terms) => array_column($terms, 0),
        array_values($groups) ?: [[]]
    )));
    $out = [];
    foreach ($groups as $key => $terms) {
        foreach ($terms as &$term) {
            $term[4] = $posts[$term[0]] ?? 0;
        }
        unset($term);
        usort($terms, static fn ($a, $b) => $b[4] <=> $a[4] ?: $a[0] <=> $b[0]);
        $out[] = [(string) $key, $terms];
    }
    $order = static fn (string $key) => function_exists('mb_convert_encoding') ? mb_convert_encoding($key, 'UTF-16BE', 'UTF-8') : $key;
    $sort = array_map(static fn ($g) => $order($g[0]), $out);
    array_multisort($sort, SORT_STRING, $out);
    return $out;
}

/** Objects of every type and status holding each term (auto-drafts aside), 5,000 terms a query. */
function cms_admin_objects_per_term(string $taxonomy, array $ids): array
{
    global $wpdb;
    $counts = [];
    foreach (array_chunk($ids, 5000) as $chunk) {
        $rows = $wpdb->get_results($wpdb->prepare(
            "SELECT tt.term_id, COUNT(DISTINCT tr.object_id) FROM {$wpdb->term_relationships} tr
            JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id
            LEFT JOIN {$wpdb->posts} p ON p.ID = tr.object_id
            WHERE tt.taxonomy = %s AND tt.term_id IN (" . cms_admin_id_list($chunk) . ")
            AND (p.ID IS NULL OR p.post_status <> 'auto-draft') GROUP BY tt.term_id",
            $taxonomy
        ), ARRAY_N);
        foreach ($rows as $row) {
            $counts[(int) $row[0]] = (int) $row[1];
        }
    }
    return $counts;
}
