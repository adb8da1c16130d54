<?php
/**
 * The term deletions and parent moves of term-bulk.php (0.7.0, issues #59 and #61): each term read
 * again from the tables just before it is written, and left, named, when the state it was planned
 * on no longer holds; each request in the client's time budget.
 */

if (!defined('ABSPATH')) {
    exit;
}

function cms_admin_rest_delete_terms(WP_REST_Request $request)
{
    $taxonomy = (string) $request['taxonomy'];
    $max = (int) $request['max_objects'];
    $default = cms_admin_default_term($taxonomy);
    $deadline = cms_admin_deadline($request);
    $out = ['deleted' => [], 'kept' => [], 'changes' => [], 'children_moved' => [], 'remaining' => []];
    wp_defer_term_counting(true);
    foreach (array_values((array) $request['terms']) as $i => $item) {
        $id = (int) $item['id'];
        if ($i > 0 && microtime(true) >= $deadline) {
            $out['remaining'][] = $id;
            continue;
        }
        $reason = cms_admin_delete_refusal($id, $taxonomy, $item, $max, $default, (bool) $request['include_parents']);
        if (null === $reason) {
            $reason = cms_admin_delete_term_noting($id, $taxonomy, $out);
        }
        if (null !== $reason) {
            $out['kept'][] = ['id' => $id, 'reason' => $reason];
        }
    }
    wp_defer_term_counting(false);
    $out['changes'] = (object) $out['changes'];
    $out['children_moved'] = (object) $out['children_moved'];
    return rest_ensure_response($out);
}

/** Why a term may not go now (read from the tables), or null: the planned state still holds. */
function cms_admin_delete_refusal(int $id, string $taxonomy, array $item, int $max, int $default, bool $parents): ?string
{
    $term = get_term($id, $taxonomy);
    if (!$term instanceof WP_Term) {
        return 'not_found';
    }
    if ($id === $default) {
        return 'default_category';
    }
    $holders = cms_admin_term_holders($id, $taxonomy);
    if (count($holders) > $max) {
        return sprintf('used by %d object(s) now (%s)', count($holders), implode(', ', array_slice($holders, 0, 10)));
    }
    if (isset($item['holders'])) {
        $since = array_values(array_diff($holders, array_map('intval', (array) $item['holders'])));
        if ($since) {
            return sprintf('given to object(s) %s since it was planned', implode(', ', array_slice($since, 0, 10)));
        }
    }
    $children = cms_admin_child_terms($id, $taxonomy);
    if ($children && !$parents) {
        return 'has children';
    }
    if ($children && isset($item['children'])) {
        $since = array_values(array_diff($children, array_map('intval', (array) $item['children'])));
        if ($since) {
            return sprintf('has child term(s) %s added since it was planned', implode(', ', array_slice($since, 0, 10)));
        }
    }
    return null;
}

/** Deletes a term, noting what WordPress did to its objects (the fallback term) and children; null when deleted. */
function cms_admin_delete_term_noting(int $id, string $taxonomy, array &$out): ?string
{
    $holders = cms_admin_term_holders($id, $taxonomy);
    $before = [];
    foreach ($holders as $object) {
        $before[$object] = cms_admin_held_terms($object, $taxonomy);
    }
    $children = cms_admin_child_terms($id, $taxonomy);
    $result = wp_delete_term($id, $taxonomy);
    if (true !== $result) {
        return is_wp_error($result) ? $result->get_error_message() : 'not deleted';
    }
    $out['deleted'][] = $id;
    foreach ($before as $object => $had) {
        $has = cms_admin_held_terms($object, $taxonomy);
        // An object may lose several of the terms deleted in one request: its changes add up.
        $prev = $out['changes'][(string) $object] ?? ['added' => [], 'removed' => []];
        $out['changes'][(string) $object] = [
            'added' => array_values(array_unique(array_merge(array_diff($prev['added'], [$id]), array_diff($has, $had)))),
            'removed' => array_values(array_unique(array_merge($prev['removed'], array_diff($had, $has)))),
        ];
    }
    if ($children) {
        $out['children_moved'][(string) $id] = array_map('intval', $children);
    }
    return null;
}

function cms_admin_rest_terms_parent(WP_REST_Request $request)
{
    $taxonomy = (string) $request['taxonomy'];
    if (!is_taxonomy_hierarchical($taxonomy)) {
        return new WP_Error('not_hierarchical', sprintf('The taxonomy %s is flat: its terms have no parent.', $taxonomy), ['status' => 400]);
    }
    $deadline = cms_admin_deadline($request);
    $out = ['moved' => [], 'skipped' => [], 'failed' => [], 'remaining' => []];
    foreach (array_values((array) $request['items']) as $i => $item) {
        $id = (int) $item['id'];
        if ($i > 0 && microtime(true) >= $deadline) {
            $out['remaining'][] = $id;
            continue;
        }
        $from = (int) $item['from'];
        $to = (int) $item['to'];
        clean_term_cache($id, $taxonomy);
        $term = get_term($id, $taxonomy);
        if (!$term instanceof WP_Term) {
            $out['skipped'][] = ['id' => $id, 'reason' => 'deleted since', 'parent' => null];
            continue;
        }
        if ((int) $term->parent !== $from) {
            $out['skipped'][] = ['id' => $id, 'reason' => 'parent changed since', 'parent' => (int) $term->parent];
            continue;
        }
        if ($to && !term_exists($to, $taxonomy)) {
            $out['failed'][] = ['id' => $id, 'code' => 'term_not_found', 'message' => "The parent $to no longer exists."];
            continue;
        }
        // Someone may have moved the new parent under this term since the loop was checked.
        for ($at = $to, $n = 0; $at && $n < 100; $n++) {
            if ($at === $id) {
                $out['skipped'][] = ['id' => $id, 'reason' => "$to is under it now: a loop", 'parent' => $from];
                continue 2;
            }
            $up = get_term($at, $taxonomy);
            $at = $up instanceof WP_Term ? (int) $up->parent : 0;
        }
        $result = wp_update_term($id, $taxonomy, ['parent' => $to]);
        if (is_wp_error($result)) {
            $out['failed'][] = ['id' => $id, 'code' => $result->get_error_code(), 'message' => $result->get_error_message()];
        } else {
            $out['moved'][] = $id;
        }
    }
    return rest_ensure_response($out);
}
