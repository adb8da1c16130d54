<?php
/**
 * Plugin Name: cms-admin-toolkit sandbox abilities
 * Description: Sandbox-only WordPress abilities (6.9+) on the shop fixture, one of each kind the toolkit treats differently: read-only, additive, destructive, without annotations, a nested input with enums, and one an editor may not run. Copied into wp-content/mu-plugins/ on every `site up`; edits there are overwritten. Tests and evals use them (docs/abilities.md).
 */

/*
 * The Abilities API came with WordPress 6.9 (https://developer.wordpress.org/apis/abilities-api/):
 * older sandboxes (6.1, 6.8) register nothing here.
 */
if (!function_exists('wp_register_ability')) {
    return;
}

add_action('wp_abilities_api_categories_init', static function (): void {
    wp_register_ability_category('cms-sandbox-shop', [
        'label' => 'Sandbox shop',
        'description' => 'The sandbox shop fixture: products and their categories.',
    ]);
});

/** A product as the abilities answer it. */
function cms_sandbox_ability_product(WP_Post $post): array
{
    return ['id' => $post->ID, 'title' => $post->post_title, 'status' => $post->post_status];
}

add_action('wp_abilities_api_init', static function (): void {
    $can_edit = static fn () => current_user_can('edit_posts');
    $shown = ['show_in_rest' => true];

    // Read-only: runs over GET, input in the query string.
    wp_register_ability('cms-sandbox/products-query', [
        'label' => 'Find products',
        'description' => 'Lists the shop products whose title contains the search words.',
        'category' => 'cms-sandbox-shop',
        'input_schema' => [
            'type' => 'object',
            'properties' => [
                'search' => ['type' => 'string', 'description' => 'Words in the title'],
                'per_page' => ['type' => 'integer', 'minimum' => 1, 'maximum' => 50, 'default' => 20],
            ],
            'additionalProperties' => false,
            'default' => [],
        ],
        'execute_callback' => static function ($input) {
            $posts = get_posts([
                'post_type' => 'product',
                'post_status' => 'any',
                's' => (string) ($input['search'] ?? ''),
                'numberposts' => (int) ($input['per_page'] ?? 20),
                'orderby' => 'ID',
                'order' => 'ASC',
            ]);
            return ['products' => array_map('cms_sandbox_ability_product', $posts)];
        },
        'permission_callback' => static fn () => current_user_can('read'),
        'meta' => $shown + ['annotations' => ['readonly' => true, 'destructive' => false, 'idempotent' => true]],
    ]);

    // Additive: creates, deletes nothing.
    wp_register_ability('cms-sandbox/product-create', [
        'label' => 'Create a product',
        'description' => 'Adds a product to the shop.',
        'category' => 'cms-sandbox-shop',
        'input_schema' => [
            'type' => 'object',
            'properties' => [
                'title' => ['type' => 'string', 'minLength' => 1, 'description' => 'Product title'],
                'status' => ['type' => 'string', 'enum' => ['draft', 'publish'], 'default' => 'draft'],
            ],
            'required' => ['title'],
            'additionalProperties' => false,
        ],
        'execute_callback' => static function ($input) {
            $id = wp_insert_post(['post_type' => 'product', 'post_title' => $input['title'], 'post_status' => $input['status'] ?? 'draft'], true);
            return is_wp_error($id) ? $id : cms_sandbox_ability_product(get_post($id));
        },
        'permission_callback' => $can_edit,
        'meta' => $shown + ['annotations' => ['readonly' => false, 'destructive' => false, 'idempotent' => false]],
    ]);

    // Destructive and idempotent: runs over DELETE, input in the query string.
    wp_register_ability('cms-sandbox/product-delete', [
        'label' => 'Delete a product',
        'description' => 'Deletes a product for good (not to the Trash).',
        'category' => 'cms-sandbox-shop',
        'input_schema' => [
            'type' => 'object',
            'properties' => ['id' => ['type' => 'integer', 'minimum' => 1, 'description' => 'Product id']],
            'required' => ['id'],
            'additionalProperties' => false,
        ],
        'execute_callback' => static function ($input) {
            $post = get_post((int) $input['id']);
            if (!$post || 'product' !== $post->post_type) {
                return new WP_Error('cms_sandbox_no_product', 'No such product.', ['status' => 404]);
            }
            wp_delete_post($post->ID, true);
            return ['deleted' => cms_sandbox_ability_product($post)];
        },
        'permission_callback' => static fn () => current_user_can('delete_posts'),
        'meta' => $shown + ['annotations' => ['readonly' => false, 'destructive' => true, 'idempotent' => true]],
    ]);

    // No annotations, no input: a client cannot tell what it does (the toolkit treats it as destructive).
    wp_register_ability('cms-sandbox/products-touch', [
        'label' => 'Touch the shop',
        'description' => 'Counts one more visit of the shop (the option cms_sandbox_shop_touched).',
        'category' => 'cms-sandbox-shop',
        'execute_callback' => static function () {
            $count = (int) get_option('cms_sandbox_shop_touched', 0) + 1;
            update_option('cms_sandbox_shop_touched', $count);
            return ['touched' => $count];
        },
        'permission_callback' => $can_edit,
        'meta' => $shown,
    ]);

    // A nested input with enums and required members at two levels.
    wp_register_ability('cms-sandbox/product-file', [
        'label' => 'File a new product',
        'description' => 'Creates a product in a product category (made if missing).',
        'category' => 'cms-sandbox-shop',
        'input_schema' => [
            'type' => 'object',
            'properties' => [
                'product' => [
                    'type' => 'object',
                    'properties' => [
                        'title' => ['type' => 'string', 'minLength' => 1],
                        'status' => ['type' => 'string', 'enum' => ['draft', 'pending', 'publish']],
                    ],
                    'required' => ['title', 'status'],
                    'additionalProperties' => false,
                ],
                'shelf' => [
                    'type' => 'object',
                    'properties' => [
                        'category' => ['type' => 'string', 'minLength' => 1],
                        'placement' => ['type' => 'string', 'enum' => ['front', 'back']],
                    ],
                    'required' => ['category'],
                    'additionalProperties' => false,
                ],
            ],
            'required' => ['product', 'shelf'],
            'additionalProperties' => false,
        ],
        'execute_callback' => static function ($input) {
            $name = $input['shelf']['category'];
            $term = term_exists($name, 'product_cat') ?: wp_insert_term($name, 'product_cat');
            if (is_wp_error($term)) {
                return $term;
            }
            $id = wp_insert_post(['post_type' => 'product', 'post_title' => $input['product']['title'], 'post_status' => $input['product']['status']], true);
            if (is_wp_error($id)) {
                return $id;
            }
            wp_set_object_terms($id, [(int) $term['term_id']], 'product_cat');
            return cms_sandbox_ability_product(get_post($id)) + ['category' => $name, 'placement' => $input['shelf']['placement'] ?? 'front'];
        },
        'permission_callback' => $can_edit,
        'meta' => $shown + ['annotations' => ['readonly' => false, 'destructive' => false, 'idempotent' => false]],
    ]);

    // Its permission callback refuses an editor (administrators only).
    wp_register_ability('cms-sandbox/products-purge', [
        'label' => 'Purge products',
        'description' => 'Deletes every product of a status for good.',
        'category' => 'cms-sandbox-shop',
        'input_schema' => [
            'type' => 'object',
            'properties' => ['status' => ['type' => 'string', 'enum' => ['draft', 'pending', 'private']]],
            'required' => ['status'],
            'additionalProperties' => false,
        ],
        'execute_callback' => static function ($input) {
            $ids = get_posts(['post_type' => 'product', 'post_status' => $input['status'], 'numberposts' => -1, 'fields' => 'ids']);
            foreach ($ids as $id) {
                wp_delete_post($id, true);
            }
            return ['deleted' => count($ids)];
        },
        'permission_callback' => static fn () => current_user_can('manage_options'),
        'meta' => $shown + ['annotations' => ['readonly' => false, 'destructive' => true, 'idempotent' => false]],
    ]);
});
