<?php
/**
 * Bulk change of posts' categories or tags in one request:
 *
 *   POST cms-admin/v1/post-terms {taxonomy: category|post_tag, post_ids: [..≤500], add: [ids], remove: [ids]}
 *   (posts of every type the taxonomy is registered for, any status but auto-draft)
 *   → {updated: [ids], unchanged: [ids], failed: [{post_id, code, message}]}
 *
 * Through /wp/v2/posts every post costs a full wp_update_post() (hooks, a response object)
 * and a term recount per term per post; here each post is one wp_set_object_terms() with
 * counting deferred to the end — the same end state for the post's terms, a fraction of the
 * work. Each post is checked with edit_post, like the REST posts controller does.
 * https://developer.wordpress.org/reference/functions/wp_set_object_terms/
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
            'taxonomy' => ['type' => 'string', 'enum' => ['category', 'post_tag'], 'required' => true],
            'post_ids' => $ids + ['required' => true, 'minItems' => 1, 'maxItems' => 500],
            'add' => $ids + ['default' => []],
            'remove' => $ids + ['default' => []],
        ],
    ]);
}

function cms_admin_rest_post_terms(WP_REST_Request $request): array|WP_Error
{
    $taxonomy = (string) $request['taxonomy'];
    $add = array_map('intval', (array) $request['add']);
    $remove = array_map('intval', (array) $request['remove']);
    // Per term, as the REST posts controller checks (check_assign_terms_permission): a site may
    // restrict single terms through map_meta_cap. https://developer.wordpress.org/reference/functions/map_meta_cap/
    $refused = array_values(array_filter(
        array_unique(array_merge($add, $remove)),
        // A missing term is not a permission problem: it fails per post below, as in core.
        static fn (int $term_id) => get_term($term_id) && !current_user_can('assign_term', $term_id)
    ));
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
    $report = ['updated' => [], 'unchanged' => [], 'failed' => []];

    wp_defer_term_counting(true);
    foreach (array_unique(array_map('intval', (array) $request['post_ids'])) as $post_id) {
        $post = get_post($post_id);
        // Any post type the taxonomy is registered for (pages, custom types), and trashed posts,
        // which keep their terms (since 0.2.0).
        if (!$post || !is_object_in_taxonomy($post->post_type, $taxonomy) || $post->post_status === 'auto-draft') {
            $report['failed'][] = ['post_id' => $post_id, 'code' => 'post_not_found', 'message' => "No post with id $post_id of a type in $taxonomy."];
            continue;
        }
        if (!current_user_can('edit_post', $post_id)) {
            $report['failed'][] = ['post_id' => $post_id, 'code' => 'rest_cannot_edit', 'message' => "Not allowed to edit post $post_id."];
            continue;
        }
        $current = wp_get_object_terms($post_id, $taxonomy, ['fields' => 'ids']);
        if (is_wp_error($current)) {
            $report['failed'][] = ['post_id' => $post_id, 'code' => $current->get_error_code(), 'message' => $current->get_error_message()];
            continue;
        }
        $current = array_map('intval', $current);
        $wanted = array_values(array_unique(array_merge(array_diff($current, $remove), $add)));
        sort($wanted);
        $sorted = $current;
        sort($sorted);
        if ($wanted === $sorted) {
            $report['unchanged'][] = $post_id;
            continue;
        }
        $result = wp_set_object_terms($post_id, $wanted, $taxonomy);
        if (is_wp_error($result)) {
            $report['failed'][] = ['post_id' => $post_id, 'code' => $result->get_error_code(), 'message' => $result->get_error_message()];
            continue;
        }
        $report['updated'][] = $post_id;
    }
    // Recounts every term touched above, once.
    wp_defer_term_counting(false);
    return $report;
}
