<?php
/**
 * Which of a term's registered meta keys it really has (0.5.3): `cms_meta_keys` on every
 * taxonomy's terms, edit context. REST's `meta` shows every key registered with show_in_rest,
 * its default where the term has no row, so an undo that recreated a term from it wrote rows the
 * term never had (`weight=0`, `color=''`). The toolkit keeps only the keys named here.
 * https://developer.wordpress.org/reference/functions/register_term_meta/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    foreach (get_taxonomies(['show_in_rest' => true]) as $taxonomy) {
        // The terms controller names its object type after the schema's title: "tag" for post_tag.
        register_rest_field($taxonomy === 'post_tag' ? 'tag' : $taxonomy, 'cms_meta_keys', [
            'get_callback' => static fn (array $term) => cms_admin_term_meta_keys((int) $term['id'], $taxonomy),
            'schema' => [
                'description' => 'The registered meta keys (shown in REST) this term has a row for (cms-admin-companion).',
                'type' => 'array',
                'items' => ['type' => 'string'],
                'context' => ['edit'],
                'readonly' => true,
            ],
        ]);
    }
}, 99);

/** The keys REST shows in `meta` that the term has stored: never the names of unregistered (private) meta. */
function cms_admin_term_meta_keys(int $term_id, string $taxonomy): array
{
    $registered = array_merge(get_registered_meta_keys('term'), get_registered_meta_keys('term', $taxonomy));
    $shown = array_keys(array_filter($registered, static fn ($args) => !empty($args['show_in_rest'])));
    $stored = array_keys(get_term_meta($term_id) ?: []);
    return array_values(array_intersect($shown, $stored));
}
