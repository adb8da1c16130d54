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

// Make WordPress believe it was requested as /index.php (as Apache's rewrite would).
$_SERVER['SCRIPT_FILENAME'] = $cms_root . '/index.php';
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
unset($cms_root, $cms_path, $cms_target);
chdir($_SERVER['DOCUMENT_ROOT']);
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
