<?php
/**
 * Load WordPress from the command line for install.php / seed.php.
 *
 * Input (environment): CMS_SANDBOX_WP_DIR (instance WordPress dir) and
 * CMS_SANDBOX_URL (http://127.0.0.1:PORT). Must be required from the global
 * scope: wp-load.php defines the globals WordPress relies on ($wpdb,
 * $wp_rewrite, $wp ...), so callers must never use those names themselves.
 */
// Inside a WordPress request (the Playground backend runs these scripts from its
// sandbox mu-plugin, which defines CMS_SANDBOX_IN_REQUEST) WordPress is loaded already.
if (!defined('CMS_SANDBOX_IN_REQUEST')) {
    if (PHP_SAPI !== 'cli') {
        exit(1);
    }
    $cms_wp_dir = getenv('CMS_SANDBOX_WP_DIR');
    $cms_url = parse_url((string) getenv('CMS_SANDBOX_URL'));
    if (!$cms_wp_dir || !is_file($cms_wp_dir . '/wp-load.php') || empty($cms_url['host'])) {
        fwrite(STDERR, "CMS_SANDBOX_WP_DIR / CMS_SANDBOX_URL not set or invalid\n");
        exit(1);
    }

    // WordPress reads these while bootstrapping (is_ssl(), wp_guess_url(), ...).
    $_SERVER['HTTP_HOST'] = $cms_url['host'] . (isset($cms_url['port']) ? ':' . $cms_url['port'] : '');
    $_SERVER['SERVER_NAME'] = $cms_url['host'];
    $_SERVER['SERVER_PORT'] = (string) ($cms_url['port'] ?? 80);
    $_SERVER['REQUEST_URI'] = '/';
    $_SERVER['REQUEST_METHOD'] = 'GET';
    $_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
    $_SERVER['REMOTE_ADDR'] = '127.0.0.1';

    require_once $cms_wp_dir . '/wp-load.php';
    unset($cms_url);
}

/** Print one JSON document on stdout: the only channel the TypeScript side parses. */
function cms_sandbox_output(array $data): void
{
    if (defined('CMS_SANDBOX_IN_REQUEST')) {
        echo json_encode($data, JSON_UNESCAPED_SLASHES) . "\n";
        return;
    }
    fwrite(STDOUT, json_encode($data, JSON_UNESCAPED_SLASHES) . "\n");
}

function cms_sandbox_fail(string $message): void
{
    if (defined('CMS_SANDBOX_IN_REQUEST')) {
        throw new RuntimeException($message);
    }
    fwrite(STDERR, $message . "\n");
    exit(1);
}
