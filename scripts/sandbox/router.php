<?php
/**
 * Router for PHP's built-in web server: `php -S 127.0.0.1:PORT -t <wordpress> router.php`.
 *
 * php -S has no mod_rewrite, so WordPress' pretty permalinks and /wp-json/
 * need a front controller: real files and directories are left to the
 * server (`return false` serves a static file or executes a .php one), and
 * every other path is handed to WordPress' index.php, which routes on
 * REQUEST_URI. https://www.php.net/manual/en/features.commandline.webserver.php
 *
 * HTTP Basic auth needs no help here: php -S fills PHP_AUTH_USER/PHP_AUTH_PW
 * from the Authorization header, which is what WordPress' application
 * passwords read (wp_authenticate_application_password()).
 */

$cms_root = rtrim($_SERVER['DOCUMENT_ROOT'], '/');
$cms_path = rawurldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?? '/');

if ($cms_path !== '/' && strpos($cms_path, '..') === false) {
    $cms_target = $cms_root . $cms_path;
    if (is_file($cms_target) || is_dir($cms_target)) {
        return false;
    }
}

// A subdirectory network (`site up --multisite`; php-server.ts sets CMS_SANDBOX_NETWORK): every
// site's /<site>/wp-admin/…, /<site>/wp-includes/…, /<site>/wp-content/… and /<site>/<file>.php
// are the shared files, as WordPress's own .htaccess rules for such networks say; the rest
// (/<site>/wp-json/ …) goes to index.php, which finds the site by its path.
// https://developer.wordpress.org/advanced-administration/multisite/create-network/#htaccess-and-mod-rewrite
if (getenv('CMS_SANDBOX_NETWORK') === '1'
    && preg_match('~^/[_0-9a-zA-Z-]+(/(?:wp-(?:admin|includes|content)(?:/.*)?|[^/]+\.php))$~', $cms_path, $cms_m)
    && strpos($cms_m[1], '..') === false) {
    $cms_target = $cms_root . $cms_m[1];
    if (is_dir($cms_target) && is_file($cms_target . '/index.php')) {
        $cms_target .= '/index.php';
    }
    if (is_file($cms_target)) {
        if (substr($cms_target, -4) === '.php') {
            $_SERVER['SCRIPT_FILENAME'] = $cms_target;
            $_SERVER['SCRIPT_NAME'] = $_SERVER['PHP_SELF'] = substr($cms_target, strlen($cms_root));
            unset($cms_root, $cms_path, $cms_m);
            chdir(dirname($_SERVER['SCRIPT_FILENAME']));
            require $_SERVER['SCRIPT_FILENAME'];
            return true;
        }
        $cms_types = ['css' => 'text/css', 'js' => 'application/javascript', 'svg' => 'image/svg+xml', 'png' => 'image/png', 'gif' => 'image/gif', 'jpg' => 'image/jpeg', 'woff2' => 'font/woff2', 'woff' => 'font/woff'];
        header('Content-Type: ' . ($cms_types[strtolower(pathinfo($cms_target, PATHINFO_EXTENSION))] ?? 'application/octet-stream'));
        readfile($cms_target);
        return true;
    }
}

// Make WordPress believe it was requested as /index.php (as Apache's rewrite would).
$_SERVER['SCRIPT_FILENAME'] = $cms_root . '/index.php';
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
unset($cms_root, $cms_path, $cms_target, $cms_m);
chdir($_SERVER['DOCUMENT_ROOT']);
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
