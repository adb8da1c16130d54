<?php
/**
 * Which objects hold a taxonomy's terms, read from the term relationships themselves:
 *
 *   GET cms-admin/v1/post-terms?taxonomy=<slug>&term_ids=1,2   every object holding any of them
 *   GET cms-admin/v1/post-terms?taxonomy=<slug>&post_ids=5,6   these posts (types the taxonomy is on)
 *   → [{id, type, status, date_gmt, terms: [ids]}], ordered by id, paged (X-WP-Total, X-WP-TotalPages)
 *
 * Core's REST API cannot answer this (issue #34): it shows only post types with show_in_rest, and
 * its `status=any` leaves out every status registered without `public` (register_post_status()
 * makes those `internal`, excluded from search), so posts in a custom status such as `archived`
 * and posts of a type hidden from REST lost their terms when a merge deleted the sources. Here
 * every post of every type and status counts (auto-drafts aside: they are no content yet, and
 * WordPress deletes them after a week); with term_ids, an object holding the term that is no post
 * of a type the taxonomy is on (a stale relationship) is listed too, `type` null or its type, so
 * a merge cannot move it and keeps the sources rather than drop it. Read straight from the tables,
 * not the object cache: a merge checks with it that nothing is left in a source before deleting.
 * https://developer.wordpress.org/reference/functions/register_post_status/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    $ids = ['type' => 'array', 'items' => ['type' => 'integer', 'minimum' => 1], 'maxItems' => 500];
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/post-terms', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_rest_read_post_terms',
        // As the write route (who may change posts' terms); which objects hold a term, whoever
        // wrote them, only for an account that may manage the taxonomy's terms (delete, merge).
        'permission_callback' => static function (WP_REST_Request $request) {
            $taxonomy = get_taxonomy((string) $request['taxonomy']);
            return $taxonomy && current_user_can('edit_posts') && current_user_can($taxonomy->cap->assign_terms)
                && (null === $request['term_ids'] || current_user_can($taxonomy->cap->manage_terms));
        },
        'args' => [
            'taxonomy' => [
                'type' => 'string',
                'required' => true,
                'validate_callback' => static fn ($value) => is_string($value) && taxonomy_exists($value),
            ],
            'term_ids' => $ids,
            'post_ids' => $ids,
            'page' => ['type' => 'integer', 'minimum' => 1, 'default' => 1],
            'per_page' => ['type' => 'integer', 'minimum' => 1, 'maximum' => 500, 'default' => 100],
        ],
    ]);
});

function cms_admin_rest_read_post_terms(WP_REST_Request $request)
{
    global $wpdb;
    $taxonomy = (string) $request['taxonomy'];
    $by_terms = null !== $request['term_ids'];
    $wanted = array_values(array_unique(array_map('intval', (array) ($by_terms ? $request['term_ids'] : $request['post_ids']))));
    if ($by_terms === (null !== $request['post_ids'])) {
        return new WP_Error('rest_invalid_param', __('Give either term_ids or post_ids.', 'cms-admin-companion'), ['status' => 400]);
    }
    $per_page = (int) $request['per_page'];
    $offset = ((int) $request['page'] - 1) * $per_page;
    if (!$wanted) {
        return cms_admin_paged_response([], 0, $per_page);
    }
    $in = implode(',', $wanted); // integers only (intval above)
    if ($by_terms) {
        $from = "FROM {$wpdb->term_relationships} tr JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id
            LEFT JOIN {$wpdb->posts} p ON p.ID = tr.object_id
            WHERE tt.taxonomy = %s AND tt.term_id IN ($in) AND (p.ID IS NULL OR p.post_status <> 'auto-draft')";
        $total = (int) $wpdb->get_var($wpdb->prepare("SELECT COUNT(DISTINCT tr.object_id) $from", $taxonomy));
        $ids = $wpdb->get_col($wpdb->prepare("SELECT DISTINCT tr.object_id $from ORDER BY tr.object_id LIMIT %d OFFSET %d", $taxonomy, $per_page, $offset));
    } else {
        // The posts the write route would take: a type the taxonomy is on, any status but auto-draft.
        $types = array_values(array_filter(cms_admin_taxonomy_post_types($taxonomy), 'post_type_exists'));
        if (!$types) {
            return cms_admin_paged_response([], 0, $per_page);
        }
        $type_in = implode(',', array_map(static fn ($t) => $wpdb->prepare('%s', $t), $types));
        $from = "FROM {$wpdb->posts} WHERE ID IN ($in) AND post_type IN ($type_in) AND post_status <> 'auto-draft'";
        $total = (int) $wpdb->get_var("SELECT COUNT(*) $from");
        $ids = $wpdb->get_col($wpdb->prepare("SELECT ID $from ORDER BY ID LIMIT %d OFFSET %d", $per_page, $offset));
    }
    $ids = array_map('intval', $ids);
    if (!$by_terms) {
        // Given posts: those the caller may read, as core's posts controller shows them.
        $ids = array_values(array_filter($ids, static fn (int $id) => current_user_can('read_post', $id)));
    }
    return cms_admin_paged_response(cms_admin_objects_with_terms($ids, $taxonomy), $total, $per_page);
}

/** The post types a taxonomy is registered for (its object_type), without WordPress's object cache. */
function cms_admin_taxonomy_post_types(string $taxonomy): array
{
    $object = get_taxonomy($taxonomy);
    return $object ? array_map(static fn ($type) => explode(':', (string) $type)[0], (array) $object->object_type) : [];
}

/** Each object with its type, status, date and term ids in the taxonomy, in the order of `$ids`. */
function cms_admin_objects_with_terms(array $ids, string $taxonomy): array
{
    global $wpdb;
    if (!$ids) {
        return [];
    }
    $in = implode(',', $ids);
    $posts = [];
    foreach ($wpdb->get_results("SELECT ID, post_type, post_status, post_date_gmt FROM {$wpdb->posts} WHERE ID IN ($in)") as $row) {
        $posts[(int) $row->ID] = $row;
    }
    $terms = array_fill_keys($ids, []);
    $rows = $wpdb->get_results($wpdb->prepare(
        "SELECT tr.object_id, tt.term_id FROM {$wpdb->term_relationships} tr JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id WHERE tt.taxonomy = %s AND tr.object_id IN ($in) ORDER BY tt.term_id",
        $taxonomy
    ));
    foreach ($rows as $row) {
        $terms[(int) $row->object_id][] = (int) $row->term_id;
    }
    $items = [];
    foreach ($ids as $id) {
        $post = $posts[$id] ?? null;
        $date = $post && '0000-00-00 00:00:00' !== $post->post_date_gmt ? str_replace(' ', 'T', $post->post_date_gmt) : null;
        $items[] = ['id' => $id, 'type' => $post->post_type ?? null, 'status' => $post->post_status ?? null, 'date_gmt' => $date, 'terms' => $terms[$id]];
    }
    return $items;
}

function cms_admin_paged_response(array $items, int $total, int $per_page): WP_REST_Response
{
    $response = new WP_REST_Response($items);
    $response->header('X-WP-Total', (string) $total);
    $response->header('X-WP-TotalPages', (string) (int) ceil($total / $per_page));
    return $response;
}
