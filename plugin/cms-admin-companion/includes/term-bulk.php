<?php
/**
 * Bulk term writes that change only what still holds (0.7.0, issue #59), each in a time budget
 * the client gives (issue #61):
 *
 *   POST cms-admin/v1/terms/migrate-objects {from_taxonomy, to_taxonomy, map: [{from, to}],
 *        objects: [{id, from: [ids]}], remove_source, budget_ms}
 *        → {changes: {id: {added, removed, filed}}, unchanged, skipped: [{id, term, reason}], failed, remaining}
 *   POST cms-admin/v1/terms/delete {taxonomy, terms: [{id, holders?, children?}], max_objects, include_parents, budget_ms}
 *        → {deleted, kept: [{id, reason}], changes: {object: {added, removed}}, children_moved: {term: [ids]}, remaining}
 *   POST cms-admin/v1/terms/parent {taxonomy, items: [{id, from, to}], budget_ms}
 *        → {moved, skipped: [{id, reason, parent}], failed, remaining}
 *
 * Each item carries the state it was planned on, and is read again from the tables just before
 * it is written, like SQL's `UPDATE … WHERE state = planned`: an object given the source term
 * since the plan keeps it, a term given to an object nobody planned for is not deleted, a term
 * moved by someone else since is not moved again. The answer says per item what was done and
 * what was skipped because it changed, so the journal records what was done, never what was
 * planned. `budget_ms`: items are taken until that much time has passed (at least one), the rest
 * are answered in `remaining` for the client to send again, so no request nears its timeout.
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    $taxonomy = [
        'type' => 'string',
        'required' => true,
        'validate_callback' => static fn ($value) => is_string($value) && taxonomy_exists($value),
    ];
    $ids = ['type' => 'array', 'items' => ['type' => 'integer', 'minimum' => 1]];
    $budget = ['type' => 'integer', 'minimum' => 0, 'default' => 0];
    $may = static fn (string ...$caps) => static function (WP_REST_Request $request) use ($caps) {
        foreach (['taxonomy', 'from_taxonomy', 'to_taxonomy'] as $param) {
            if (null === $request[$param]) {
                continue;
            }
            $object = get_taxonomy((string) $request[$param]);
            foreach ($caps as $cap) {
                if (!$object || !current_user_can($object->cap->{$cap})) {
                    return false;
                }
            }
        }
        return true;
    };
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/terms/migrate-objects', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_rest_migrate_objects',
        'permission_callback' => static fn (WP_REST_Request $r) => current_user_can('edit_posts') && $may('assign_terms')($r),
        'args' => [
            'from_taxonomy' => $taxonomy,
            'to_taxonomy' => $taxonomy,
            'map' => ['type' => 'array', 'required' => true, 'maxItems' => 500, 'items' => [
                'type' => 'object',
                'properties' => ['from' => ['type' => 'integer', 'minimum' => 1, 'required' => true], 'to' => ['type' => 'integer', 'minimum' => 1, 'required' => true]],
            ]],
            'objects' => ['type' => 'array', 'required' => true, 'maxItems' => 500, 'items' => [
                'type' => 'object',
                'properties' => ['id' => ['type' => 'integer', 'minimum' => 1, 'required' => true], 'from' => $ids + ['required' => true]],
            ]],
            'remove_source' => ['type' => 'boolean', 'default' => true],
            'budget_ms' => $budget,
        ],
    ]);
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/terms/delete', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_rest_delete_terms',
        'permission_callback' => $may('delete_terms'),
        'args' => [
            'taxonomy' => $taxonomy,
            'terms' => ['type' => 'array', 'required' => true, 'maxItems' => 500, 'items' => [
                'type' => 'object',
                'properties' => ['id' => ['type' => 'integer', 'minimum' => 1, 'required' => true], 'holders' => $ids, 'children' => $ids],
            ]],
            'max_objects' => ['type' => 'integer', 'minimum' => 0, 'default' => 0],
            'include_parents' => ['type' => 'boolean', 'default' => false],
            'budget_ms' => $budget,
        ],
    ]);
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/terms/parent', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_rest_terms_parent',
        'permission_callback' => $may('edit_terms'),
        'args' => [
            'taxonomy' => $taxonomy,
            'items' => ['type' => 'array', 'required' => true, 'maxItems' => 500, 'items' => [
                'type' => 'object',
                'properties' => [
                    'id' => ['type' => 'integer', 'minimum' => 1, 'required' => true],
                    'from' => ['type' => 'integer', 'minimum' => 0, 'required' => true],
                    'to' => ['type' => 'integer', 'minimum' => 0, 'required' => true],
                ],
            ]],
            'budget_ms' => $budget,
        ],
    ]);
});

/** When a request given `budget_ms` stops taking items (INF without a budget). */
function cms_admin_deadline(WP_REST_Request $request): float
{
    $budget = (int) $request['budget_ms'];
    return $budget > 0 ? microtime(true) + $budget / 1000 : INF;
}

/** The term ids an object holds in a taxonomy, from the tables (not the object cache). */
function cms_admin_held_terms(int $object_id, string $taxonomy): array
{
    global $wpdb;
    return array_map('intval', $wpdb->get_col($wpdb->prepare(
        "SELECT tt.term_id FROM {$wpdb->term_relationships} tr JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id
        WHERE tr.object_id = %d AND tt.taxonomy = %s ORDER BY tt.term_id",
        $object_id,
        $taxonomy
    )));
}

/** The objects holding a term (auto-drafts aside, as term-usage counts them), from the tables. */
function cms_admin_term_holders(int $term_id, string $taxonomy): array
{
    global $wpdb;
    return array_map('intval', $wpdb->get_col($wpdb->prepare(
        "SELECT DISTINCT tr.object_id FROM {$wpdb->term_relationships} tr JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id
        LEFT JOIN {$wpdb->posts} p ON p.ID = tr.object_id
        WHERE tt.term_id = %d AND tt.taxonomy = %s AND (p.ID IS NULL OR p.post_status <> 'auto-draft') ORDER BY tr.object_id",
        $term_id,
        $taxonomy
    )));
}

/** A term's children, from the tables. */
function cms_admin_child_terms(int $term_id, string $taxonomy): array
{
    global $wpdb;
    return array_map('intval', $wpdb->get_col($wpdb->prepare(
        "SELECT term_id FROM {$wpdb->term_taxonomy} WHERE taxonomy = %s AND parent = %d ORDER BY term_id",
        $taxonomy,
        $term_id
    )));
}

/** The term WordPress files an object under when it loses its last one (the default category, or a taxonomy's default_term). */
function cms_admin_fallback_term(string $taxonomy): int
{
    $id = (int) get_option('category' === $taxonomy ? 'default_category' : 'default_term_' . $taxonomy, 0);
    return $id && term_exists($id, $taxonomy) ? $id : 0;
}

function cms_admin_rest_migrate_objects(WP_REST_Request $request)
{
    $from = (string) $request['from_taxonomy'];
    $to = (string) $request['to_taxonomy'];
    $map = [];
    foreach ((array) $request['map'] as $pair) {
        $map[(int) $pair['from']] = (int) $pair['to'];
    }
    $refusal = cms_admin_post_terms_refusal($from, array_keys($map)) ?? cms_admin_post_terms_refusal($to, array_values($map));
    if ($refusal) {
        return $refusal;
    }
    $remove = (bool) $request['remove_source'];
    $fallback = $remove ? cms_admin_fallback_term($from) : 0;
    $deadline = cms_admin_deadline($request);
    $out = ['changes' => [], 'unchanged' => [], 'skipped' => [], 'failed' => [], 'remaining' => []];
    wp_defer_term_counting(true);
    foreach (array_values((array) $request['objects']) as $i => $object) {
        $id = (int) $object['id'];
        if ($i > 0 && microtime(true) >= $deadline) {
            $out['remaining'][] = $id;
            continue;
        }
        $planned = array_values(array_intersect(array_map('intval', (array) $object['from']), array_keys($map)));
        $result = cms_admin_migrate_object($id, $from, $to, $map, $planned, $remove, $fallback, $out['skipped']);
        if (is_wp_error($result)) {
            $out['failed'][] = ['id' => $id, 'code' => $result->get_error_code(), 'message' => $result->get_error_message()];
        } elseif ($result) {
            $out['changes'][(string) $id] = $result;
        } else {
            $out['unchanged'][] = $id;
        }
    }
    wp_defer_term_counting(false);
    $out['changes'] = (object) $out['changes'];
    return rest_ensure_response($out);
}

/**
 * One object: each planned source it still holds, read now, gives it that source's target and
 * (remove_source) is taken off; a planned source it no longer holds is skipped, named. An object
 * left with no term of the source taxonomy is filed under its fallback, as wp_delete_term() does.
 * https://developer.wordpress.org/reference/functions/wp_delete_term/
 */
function cms_admin_migrate_object(int $id, string $from, string $to, array $map, array $planned, bool $remove, int $fallback, array &$skipped): array|WP_Error|null
{
    $post = get_post($id);
    if (!$post || 'auto-draft' === $post->post_status || !is_object_in_taxonomy($post->post_type, $to)) {
        return new WP_Error('post_not_found', "No post with id $id of a type in $to.");
    }
    if (!current_user_can('edit_post', $id)) {
        return new WP_Error('rest_cannot_edit', "Not allowed to edit post $id.");
    }
    $held = cms_admin_held_terms($id, $from);
    $still = array_values(array_intersect($planned, $held));
    foreach (array_diff($planned, $held) as $gone) {
        $skipped[] = ['id' => $id, 'term' => (int) $gone, 'reason' => 'no longer has it'];
    }
    if (!$still) {
        return null;
    }
    $targets = array_values(array_unique(array_map(static fn ($s) => $map[$s], $still)));
    $missing = cms_admin_missing_terms($targets, $to);
    if ($missing) {
        return cms_admin_terms_gone($missing, $to, $id);
    }
    $add = array_values(array_diff($targets, cms_admin_held_terms($id, $to)));
    if ($add) {
        $added = wp_add_object_terms($id, $add, $to);
        if (is_wp_error($added)) {
            return $added;
        }
    }
    $change = ['added' => $add, 'removed' => [], 'filed' => []];
    if ($remove) {
        $removed = wp_remove_object_terms($id, $still, $from);
        if (is_wp_error($removed)) {
            return $removed;
        }
        $change['removed'] = $still;
        if ($fallback && !cms_admin_held_terms($id, $from)) {
            wp_add_object_terms($id, [$fallback], $from);
            $change['filed'] = [$fallback];
        }
    }
    return $add || $change['removed'] ? $change : null;
}

require_once __DIR__ . '/term-bulk-writes.php';
