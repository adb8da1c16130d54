<?php
/**
 * Bulk change of posts' terms in any taxonomy, in one request:
 *
 *   POST cms-admin/v1/post-terms {taxonomy: <slug>, post_ids: [..≤500], add: [ids], remove: [ids]}
 *   (posts of every type the taxonomy is registered for, any status but auto-draft)
 *   → {updated: [ids], unchanged: [ids], failed: [{post_id, code, message}],
 *      changes: {post_id: {added, removed}} (0.5.3: what each updated post really gained and lost),
 *      remaining: [ids] (0.7.0: with `budget_ms`, the posts not reached in that time, to send again)}
 *
 * Changes, not replacements (since 0.3.0): each post gets wp_add_object_terms() and
 * wp_remove_object_terms(), never a rewrite of its whole list, so terms another writer gave the
 * post meanwhile stay. A post loses the `remove` terms only after it is seen carrying every
 * `add` term, and gets them back if an `add` term is deleted meanwhile (a merge whose target
 * vanishes must not leave posts in neither). An id that is a term of another taxonomy fails the
 * whole call by name (wp_set_object_terms() would drop it silently); an id that is no term
 * (deleted meanwhile) fails each post by name. Counting is deferred to the end; each post is
 * checked with edit_post, like the REST posts controller does.
 * https://developer.wordpress.org/reference/functions/wp_add_object_terms/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', 'cms_admin_register_post_terms_route');

function cms_admin_register_post_terms_route(): void
{
    $ids = ['type' => 'array', 'items' => ['type' => 'integer', 'minimum' => 1]];
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/post-terms', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_rest_post_terms',
        'permission_callback' => static function (WP_REST_Request $request) {
            $taxonomy = get_taxonomy((string) $request['taxonomy']);
            return $taxonomy && current_user_can('edit_posts') && current_user_can($taxonomy->cap->assign_terms);
        },
        'args' => [
            'taxonomy' => [
                'type' => 'string',
                'required' => true,
                'validate_callback' => static fn ($value) => is_string($value) && taxonomy_exists($value),
            ],
            'post_ids' => $ids + ['required' => true, 'minItems' => 1, 'maxItems' => 500],
            'add' => $ids + ['default' => []],
            'remove' => $ids + ['default' => []],
            // 0.7.0 (#61): posts are taken until this much time has passed (at least one); the
            // rest are answered in `remaining`, so a slow site makes more requests, not a timed-out one.
            'budget_ms' => ['type' => 'integer', 'minimum' => 0, 'default' => 0],
        ],
    ]);
}

function cms_admin_rest_post_terms(WP_REST_Request $request): array|WP_Error
{
    $taxonomy = (string) $request['taxonomy'];
    $add = array_values(array_unique(array_map('intval', (array) $request['add'])));
    $remove = array_values(array_diff(array_unique(array_map('intval', (array) $request['remove'])), $add));
    $refusal = cms_admin_post_terms_refusal($taxonomy, array_merge($add, $remove));
    if ($refusal) {
        return $refusal;
    }
    $report = ['updated' => [], 'unchanged' => [], 'failed' => [], 'changes' => [], 'remaining' => []];
    $deadline = cms_admin_deadline($request);

    wp_defer_term_counting(true);
    foreach (array_values(array_unique(array_map('intval', (array) $request['post_ids']))) as $i => $post_id) {
        if ($i > 0 && microtime(true) >= $deadline) {
            $report['remaining'][] = $post_id;
            continue;
        }
        $change = null;
        $outcome = cms_admin_change_post_terms($post_id, $taxonomy, $add, $remove, $change);
        if (is_wp_error($outcome)) {
            $report['failed'][] = ['post_id' => $post_id, 'code' => $outcome->get_error_code(), 'message' => $outcome->get_error_message()];
        } else {
            $report[$outcome][] = $post_id;
            if ($outcome === 'updated') {
                $report['changes'][(string) $post_id] = $change;
            }
        }
    }
    // Recounts every term touched above, once.
    wp_defer_term_counting(false);
    // `changes` (0.5.3): per updated post, the terms it really gained and lost, read as it was
    // written (a term another writer gave it a moment before is in it): what the journal keeps.
    $report['changes'] = (object) $report['changes'];
    return $report;
}

/**
 * Refuses the whole call (nothing written) for ids that are terms of another taxonomy and for
 * terms the user may not assign. Per term, as the REST posts controller checks
 * (check_assign_terms_permission): a site may restrict single terms through map_meta_cap.
 * A missing term is neither: it fails per post, as in core.
 */
function cms_admin_post_terms_refusal(string $taxonomy, array $term_ids): ?WP_Error
{
    $elsewhere = [];
    $refused = [];
    foreach ($term_ids as $term_id) {
        $term = get_term($term_id);
        if (!$term instanceof WP_Term) {
            continue;
        }
        if ($term->taxonomy !== $taxonomy) {
            $elsewhere[] = "$term_id ({$term->taxonomy})";
        } elseif (!current_user_can('assign_term', $term_id)) {
            $refused[] = $term_id;
        }
    }
    if ($elsewhere) {
        return new WP_Error(
            'cms_admin_term_not_in_taxonomy',
            sprintf(
                /* translators: 1: term ids with their taxonomies, 2: taxonomy slug */
                __('Term(s) %1$s are not terms of %2$s; no post was changed.', 'cms-admin-companion'),
                implode(', ', $elsewhere),
                $taxonomy
            ),
            ['status' => 400, 'taxonomy' => $taxonomy]
        );
    }
    if ($refused) {
        return new WP_Error(
            'cms_admin_cannot_assign_term',
            sprintf(
                /* translators: %s: term ids */
                __('You are not allowed to assign or remove the term(s) %s; no post was changed.', 'cms-admin-companion'),
                implode(', ', $refused)
            ),
            ['status' => 403, 'term_ids' => $refused]
        );
    }
    return null;
}

/**
 * One post: 'updated', 'unchanged' or a WP_Error naming why it was left as it was. `$change`
 * gets, for an updated post, the terms it gained and lost (`added`, `removed`).
 */
function cms_admin_change_post_terms(int $post_id, string $taxonomy, array $add, array $remove, ?array &$change = null): string|WP_Error
{
    $post = get_post($post_id);
    // Any post type the taxonomy is registered for (pages, custom types), and trashed posts,
    // which keep their terms (since 0.2.0).
    if (!$post || !is_object_in_taxonomy($post->post_type, $taxonomy) || $post->post_status === 'auto-draft') {
        return new WP_Error('post_not_found', "No post with id $post_id of a type in $taxonomy.");
    }
    if (!current_user_can('edit_post', $post_id)) {
        return new WP_Error('rest_cannot_edit', "Not allowed to edit post $post_id.");
    }
    $gone = cms_admin_missing_terms($add, $taxonomy);
    if ($gone) {
        return cms_admin_terms_gone($gone, $taxonomy, $post_id);
    }
    $current = cms_admin_object_term_ids($post_id, $taxonomy);
    if (is_wp_error($current)) {
        return $current;
    }
    $to_add = array_values(array_diff($add, $current));
    $to_remove = array_values(array_intersect($remove, $current));
    if (!$to_add && !$to_remove) {
        return 'unchanged';
    }
    if ($to_add) {
        $added = wp_add_object_terms($post_id, $to_add, $taxonomy);
        if (is_wp_error($added)) {
            return $added;
        }
        $now = cms_admin_object_term_ids($post_id, $taxonomy);
        $missing = is_wp_error($now) ? $to_add : array_diff($to_add, $now);
        if ($missing) {
            return cms_admin_terms_gone($missing, $taxonomy, $post_id);
        }
    }
    if ($to_remove) {
        $removed = wp_remove_object_terms($post_id, $to_remove, $taxonomy);
        if (is_wp_error($removed)) {
            return $removed;
        }
        // An added term deleted after the check above: give the removed ones back.
        $gone = cms_admin_missing_terms($to_add, $taxonomy);
        if ($gone) {
            wp_add_object_terms($post_id, $to_remove, $taxonomy);
            return cms_admin_terms_gone($gone, $taxonomy, $post_id);
        }
    }
    $change = ['added' => $to_add, 'removed' => $to_remove];
    return 'updated';
}

function cms_admin_object_term_ids(int $post_id, string $taxonomy): array|WP_Error
{
    wp_cache_delete($post_id, $taxonomy . '_relationships');
    $ids = wp_get_object_terms($post_id, $taxonomy, ['fields' => 'ids', 'update_term_meta_cache' => false]);
    return is_wp_error($ids) ? $ids : array_map('intval', $ids);
}

function cms_admin_missing_terms(array $term_ids, string $taxonomy): array
{
    return array_values(array_filter($term_ids, static fn (int $id) => !term_exists($id, $taxonomy)));
}

function cms_admin_terms_gone(array $term_ids, string $taxonomy, int $post_id): WP_Error
{
    $list = implode(', ', $term_ids);
    return new WP_Error('term_not_found', "Term(s) $list of $taxonomy no longer exist (deleted meanwhile); post $post_id keeps its terms.");
}
