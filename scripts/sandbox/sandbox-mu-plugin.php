<?php
/**
 * Plugin Name: cms-admin-toolkit sandbox
 * Description: Sandbox-only behaviour: a `genre` taxonomy, a shop fixture (`product`, `product_cat`) and mail capture. Copied into wp-content/mu-plugins/ on every `site up`; edits there are overwritten.
 */

/**
 * (a) A non-hierarchical custom taxonomy, so the toolkit's generic taxonomy
 * tools have something beyond categories and tags to work on.
 * https://developer.wordpress.org/reference/functions/register_taxonomy/
 */
add_action('init', static function (): void {
    register_taxonomy('genre', ['post'], [
        'labels' => [
            'name' => 'Genres',
            'singular_name' => 'Genre',
        ],
        'hierarchical' => false,
        'public' => true,
        'show_ui' => true,
        'show_admin_column' => true,
        'show_in_rest' => true,
        'rest_base' => 'genres',
        'query_var' => true,
        'rewrite' => ['slug' => 'genre'],
    ]);
});

/**
 * (c) A custom post type `book`, and — only while the option `cms_sandbox_shared_terms` is on —
 * categories and tags on pages and books too, as sites do with
 * register_taxonomy_for_object_type(). Tests switch it through /wp/v2/settings, so every other
 * test sees the usual site (categories and tags on posts only).
 * https://developer.wordpress.org/reference/functions/register_taxonomy_for_object_type/
 */
add_action('init', static function (): void {
    register_post_type('book', [
        'label' => 'Books',
        'public' => true,
        'show_in_rest' => true,
        'rest_base' => 'books',
        'supports' => ['title', 'editor', 'author'],
    ]);
    register_setting('general', 'cms_sandbox_shared_terms', [
        'type' => 'boolean',
        'default' => false,
        'show_in_rest' => true,
    ]);
    if (get_option('cms_sandbox_shared_terms')) {
        foreach (['page', 'book'] as $type) {
            register_taxonomy_for_object_type('category', $type);
            register_taxonomy_for_object_type('post_tag', $type);
        }
    }
});

/**
 * (e) A shop-like fixture, as WooCommerce-style sites have: a `product` post type with a
 * hierarchical `product_cat` whose REST base (and namespace) differ from its slug, so tools
 * must take routes from the taxonomy's REST record. Plus `sandbox_private`, a taxonomy kept
 * out of REST (show_in_rest false), which tools must report as not available.
 */
add_action('init', static function (): void {
    register_post_type('product', [
        'label' => 'Products',
        'public' => true,
        'show_in_rest' => true,
        'rest_base' => 'products',
        'supports' => ['title', 'editor', 'author'],
    ]);
    register_taxonomy('product_cat', ['product'], [
        'labels' => ['name' => 'Product categories', 'singular_name' => 'Product category'],
        'hierarchical' => true,
        'public' => true,
        'show_ui' => true,
        'show_in_rest' => true,
        'rest_base' => 'product-categories',
        'rest_namespace' => 'shop/v1',
    ]);
    register_taxonomy('sandbox_private', ['post'], [
        'label' => 'Private flags',
        'public' => false,
        'show_in_rest' => false,
    ]);
});

/**
 * (d) Test-only: move a scheduled post's time into the past without publishing it, i.e. a
 * "missed schedule" (WP-Cron did not run), which no REST call can create: wp_insert_post()
 * publishes a past-dated `future` post. POST cms-sandbox/v1/posts/<id>/miss-schedule.
 */
add_action('rest_api_init', static function (): void {
    register_rest_route('cms-sandbox/v1', '/posts/(?P<id>\d+)/miss-schedule', [
        'methods' => 'POST',
        'permission_callback' => static fn () => current_user_can('manage_options'),
        'callback' => static function (WP_REST_Request $request) {
            global $wpdb;
            $id = (int) $request['id'];
            $gmt = gmdate('Y-m-d H:i:s', time() - HOUR_IN_SECONDS);
            $wpdb->update($wpdb->posts, ['post_date' => get_date_from_gmt($gmt), 'post_date_gmt' => $gmt], ['ID' => $id]);
            clean_post_cache($id);
            return ['id' => $id, 'status' => get_post_status($id), 'date_gmt' => $gmt];
        },
    ]);
});

/**
 * (b) Capture mail instead of sending it. wp_mail() is pluggable: core only
 * defines it if it does not exist, and mu-plugins load before pluggable.php.
 * https://developer.wordpress.org/reference/functions/wp_mail/
 * Each call appends one JSON line {to, subject, message, headers, time} to
 * the file named by the CMS_SANDBOX_MAIL_LOG constant (set in wp-config.php).
 */
if (!function_exists('wp_mail')) {
    function wp_mail($to, $subject, $message, $headers = '', $attachments = [])
    {
        $atts = apply_filters('wp_mail', compact('to', 'subject', 'message', 'headers', 'attachments'));
        $list = static function ($value): array {
            if (is_array($value)) {
                return array_values(array_filter(array_map('trim', $value), 'strlen'));
            }
            return array_values(array_filter(array_map('trim', preg_split('/[,\n]/', (string) $value)), 'strlen'));
        };
        $headerLines = is_array($atts['headers']) ? $atts['headers'] : preg_split('/\r?\n/', (string) $atts['headers']);
        $entry = [
            'to' => $list($atts['to']),
            'subject' => (string) $atts['subject'],
            'message' => (string) $atts['message'],
            'headers' => array_values(array_filter(array_map('trim', $headerLines), 'strlen')),
            'time' => gmdate('c'),
        ];
        $file = defined('CMS_SANDBOX_MAIL_LOG') ? CMS_SANDBOX_MAIL_LOG : WP_CONTENT_DIR . '/cms-sandbox-mail.jsonl';
        $ok = false !== file_put_contents($file, json_encode($entry, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE) . "\n", FILE_APPEND | LOCK_EX);
        if ($ok) {
            do_action('wp_mail_succeeded', $entry);
        }
        return $ok;
    }
}

/**
 * (#51) Term fields as SEO plugins keep them: categories get a registered `seo_title` (string)
 * and `seo_noindex` (boolean), shown in REST, so create-term/update-term can write them and
 * list-terms (full) shows them. A key registered without show_in_rest (`_seo_internal`) is what
 * the toolkit must refuse to write.
 * https://developer.wordpress.org/reference/functions/register_term_meta/
 */
add_action('init', static function (): void {
    register_term_meta('category', 'seo_title', ['type' => 'string', 'single' => true, 'default' => '', 'show_in_rest' => true]);
    register_term_meta('category', 'seo_noindex', ['type' => 'boolean', 'single' => true, 'default' => false, 'show_in_rest' => true]);
    register_term_meta('category', '_seo_internal', ['type' => 'string', 'single' => true, 'show_in_rest' => false]);
});

/**
 * (#53) bcrypt's cost for new password hashes, from CMS_SANDBOX_BCRYPT_COST in the server's
 * environment (4–31; unset: WordPress's default, 10). The test suite's global setup sets 4: a hash
 * at 10 costs ~50 ms of CPU, and the tests create hundreds of accounts (import-users' batches,
 * create-user, the evals' fixtures). Hashes stay bcrypt and logins work as before; a login with an
 * older hash at another cost rehashes it, as WordPress does whenever the cost changes.
 * https://developer.wordpress.org/reference/hooks/wp_hash_password_options/ (WordPress 6.8+)
 */
$cms_sandbox_bcrypt_cost = (int) getenv('CMS_SANDBOX_BCRYPT_COST');
if ($cms_sandbox_bcrypt_cost >= 4 && $cms_sandbox_bcrypt_cost <= 31) {
    add_filter('wp_hash_password_options', static function (array $options, $algorithm) use ($cms_sandbox_bcrypt_cost): array {
        return PASSWORD_BCRYPT === $algorithm ? ['cost' => $cms_sandbox_bcrypt_cost] + $options : $options;
    }, 10, 2);
}
unset($cms_sandbox_bcrypt_cost);
