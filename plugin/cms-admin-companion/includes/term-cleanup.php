<?php
/**
 * Taxonomy clean-up (0.6.0, issue #51): what `wp term prune` and `wp term recount` do, over REST.
 *
 *   GET  cms-admin/v1/term-usage?taxonomy=<slug>[&max_objects=N&search=&older_than=&exclude=&childless=1]
 *        → [{id, name, slug, parent, count, objects, children, last_used_gmt}] by name, paged
 *   POST cms-admin/v1/terms/prune   {taxonomy, term_ids, max_objects, include_parents}
 *        → {deleted: [ids], kept: [{id, reason}]}: each term checked again just before it goes
 *   POST cms-admin/v1/terms/recount {taxonomy, term_ids?} → {checked, changed: [{id, name, from, to}]}
 *
 * `objects` counts every object of every type and status holding the term (auto-drafts aside, as
 * post-terms-read.php), read from the relationships: WordPress's own `count` is published posts
 * only (_update_post_term_count), so a tag used only by drafts reads 0 there and would be pruned.
 * The default category is never listed nor deleted (wp_delete_term refuses it too).
 * https://developer.wordpress.org/reference/functions/wp_update_term_count_now/
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
    $ids = ['type' => 'array', 'items' => ['type' => 'integer', 'minimum' => 1], 'maxItems' => 500];
    $may = static fn (string $cap) => static function (WP_REST_Request $request) use ($cap) {
        $object = get_taxonomy((string) $request['taxonomy']);
        return $object && current_user_can($object->cap->{$cap});
    };
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/term-usage', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_rest_term_usage',
        'permission_callback' => $may('manage_terms'),
        'args' => [
            'taxonomy' => $taxonomy,
            'include' => $ids,
            'exclude' => ['type' => 'array', 'items' => ['type' => 'integer', 'minimum' => 1], 'maxItems' => 5000],
            'search' => ['type' => 'string'],
            'max_objects' => ['type' => 'integer', 'minimum' => 0],
            'older_than' => ['type' => 'string', 'format' => 'date-time'],
            'childless' => ['type' => 'boolean', 'default' => false],
            'page' => ['type' => 'integer', 'minimum' => 1, 'default' => 1],
            'per_page' => ['type' => 'integer', 'minimum' => 1, 'maximum' => 500, 'default' => 100],
        ],
    ]);
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/terms/prune', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_rest_prune_terms',
        'permission_callback' => $may('delete_terms'),
        'args' => [
            'taxonomy' => $taxonomy,
            'term_ids' => $ids + ['required' => true],
            'max_objects' => ['type' => 'integer', 'minimum' => 0, 'default' => 0],
            'include_parents' => ['type' => 'boolean', 'default' => false],
        ],
    ]);
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/terms/recount', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_rest_recount_terms',
        'permission_callback' => $may('edit_terms'),
        'args' => [
            'taxonomy' => $taxonomy,
            'term_ids' => ['type' => 'array', 'items' => ['type' => 'integer', 'minimum' => 1], 'maxItems' => 5000],
        ],
    ]);
});

/** The usage rows of a taxonomy's terms: one query, `$where` on terms (t) and term_taxonomy (tt). */
function cms_admin_term_usage_sql(string $taxonomy): string
{
    global $wpdb;
    return $wpdb->prepare(
        "SELECT t.term_id AS id, t.name, t.slug, tt.parent, tt.count, COALESCE(u.n, 0) AS objects,
            COALESCE(c.n, 0) AS children, u.last_used AS last_used_gmt
        FROM {$wpdb->terms} t JOIN {$wpdb->term_taxonomy} tt ON tt.term_id = t.term_id
        LEFT JOIN (SELECT tr.term_taxonomy_id, COUNT(DISTINCT tr.object_id) AS n, MAX(p.post_date_gmt) AS last_used
            FROM {$wpdb->term_relationships} tr LEFT JOIN {$wpdb->posts} p ON p.ID = tr.object_id
            WHERE p.ID IS NULL OR p.post_status <> 'auto-draft' GROUP BY tr.term_taxonomy_id) u
            ON u.term_taxonomy_id = tt.term_taxonomy_id
        LEFT JOIN (SELECT parent, COUNT(*) AS n FROM {$wpdb->term_taxonomy} WHERE taxonomy = %s GROUP BY parent) c
            ON c.parent = t.term_id
        WHERE tt.taxonomy = %s",
        $taxonomy,
        $taxonomy
    );
}

/** Integer ids as a SQL list (intval'd). */
function cms_admin_id_list(array $ids): string
{
    return implode(',', array_map('intval', $ids) ?: [0]);
}

function cms_admin_default_term(string $taxonomy): int
{
    return 'category' === $taxonomy ? (int) get_option('default_category') : 0;
}

function cms_admin_rest_term_usage(WP_REST_Request $request)
{
    global $wpdb;
    $taxonomy = (string) $request['taxonomy'];
    $sql = cms_admin_term_usage_sql($taxonomy);
    $exclude = array_merge((array) $request['exclude'], array_filter([cms_admin_default_term($taxonomy)]));
    if ($exclude) {
        $sql .= ' AND t.term_id NOT IN (' . cms_admin_id_list($exclude) . ')';
    }
    if (null !== $request['include']) {
        $sql .= ' AND t.term_id IN (' . cms_admin_id_list((array) $request['include']) . ')';
    }
    if ('' !== (string) $request['search']) {
        $like = '%' . $wpdb->esc_like(esc_html((string) $request['search'])) . '%';
        $sql .= $wpdb->prepare(' AND (t.name LIKE %s OR t.slug LIKE %s)', $like, $like);
    }
    $having = [];
    if (null !== $request['max_objects']) {
        $having[] = $wpdb->prepare('objects <= %d', (int) $request['max_objects']);
    }
    if ($request['childless']) {
        $having[] = 'children = 0';
    }
    if (null !== $request['older_than']) {
        // Not used by anything dated on or after it (terms have no date of their own).
        $having[] = $wpdb->prepare('(last_used_gmt IS NULL OR last_used_gmt < %s)', gmdate('Y-m-d H:i:s', strtotime((string) $request['older_than'])));
    }
    $rows_sql = "SELECT * FROM ($sql) x" . ($having ? ' WHERE ' . implode(' AND ', $having) : '');
    $per_page = (int) $request['per_page'];
    $offset = ((int) $request['page'] - 1) * $per_page;
    $total = (int) $wpdb->get_var("SELECT COUNT(*) FROM ($rows_sql) y");
    $rows = $wpdb->get_results($wpdb->prepare("$rows_sql ORDER BY name, id LIMIT %d OFFSET %d", $per_page, $offset));
    $items = array_map(static fn ($row) => [
        'id' => (int) $row->id,
        'name' => $row->name,
        'slug' => $row->slug,
        'parent' => (int) $row->parent,
        'count' => (int) $row->count,
        'objects' => (int) $row->objects,
        'children' => (int) $row->children,
        'last_used_gmt' => $row->last_used_gmt ? str_replace(' ', 'T', $row->last_used_gmt) : null,
    ], $rows);
    return cms_admin_paged_response($items, $total, $per_page);
}

function cms_admin_rest_prune_terms(WP_REST_Request $request)
{
    global $wpdb;
    $taxonomy = (string) $request['taxonomy'];
    $ids = array_values(array_unique(array_map('intval', (array) $request['term_ids'])));
    $max = (int) $request['max_objects'];
    $default = cms_admin_default_term($taxonomy);
    $deleted = [];
    $kept = [];
    // One count of each term's objects at the end, not one per deleted relationship.
    wp_defer_term_counting(true);
    foreach ($ids as $id) {
        // Read again now, from the tables: a post given the term since the question keeps it.
        $row = $wpdb->get_row(cms_admin_term_usage_sql($taxonomy) . $wpdb->prepare(' AND t.term_id = %d', $id));
        $reason = null;
        if (!$row) {
            $reason = 'not_found';
        } elseif ($id === $default) {
            $reason = 'default_category';
        } elseif ((int) $row->objects > $max) {
            $reason = sprintf('used by %d object(s) now', (int) $row->objects);
        } elseif ((int) $row->children > 0 && !$request['include_parents']) {
            $reason = 'has children';
        }
        if (null === $reason) {
            $result = wp_delete_term($id, $taxonomy);
            if (true === $result) {
                $deleted[] = $id;
                continue;
            }
            $reason = is_wp_error($result) ? $result->get_error_message() : 'not deleted';
        }
        $kept[] = ['id' => $id, 'reason' => $reason];
    }
    wp_defer_term_counting(false);
    return rest_ensure_response(['deleted' => $deleted, 'kept' => $kept]);
}

function cms_admin_rest_recount_terms(WP_REST_Request $request)
{
    global $wpdb;
    $taxonomy = (string) $request['taxonomy'];
    $only = null === $request['term_ids'] ? '' : ' AND t.term_id IN (' . cms_admin_id_list((array) $request['term_ids']) . ')';
    $read = static fn () => $wpdb->get_results($wpdb->prepare(
        "SELECT t.term_id, t.name, tt.term_taxonomy_id, tt.count FROM {$wpdb->terms} t
        JOIN {$wpdb->term_taxonomy} tt ON tt.term_id = t.term_id WHERE tt.taxonomy = %s$only ORDER BY t.term_id",
        $taxonomy
    ), OBJECT_K);
    $before = $read();
    if ($before) {
        wp_update_term_count_now(array_map(static fn ($row) => (int) $row->term_taxonomy_id, array_values($before)), $taxonomy);
        clean_term_cache(array_map('intval', array_keys($before)), $taxonomy);
    }
    $changed = [];
    foreach ($read() as $id => $row) {
        $was = (int) ($before[$id]->count ?? 0);
        if ($was !== (int) $row->count) {
            $changed[] = ['id' => (int) $id, 'name' => $row->name, 'from' => $was, 'to' => (int) $row->count];
        }
    }
    return rest_ensure_response(['checked' => count($before), 'changed' => $changed]);
}
