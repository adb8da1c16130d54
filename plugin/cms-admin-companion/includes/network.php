<?php
/**
 * Multisite networks (0.5.0): the network's users with their sites and roles, membership per
 * site, super admins, deleting an account from the network. Core REST has none of it: its
 * /wp/v2/users works on one site, and on a network it cannot delete a user (501).
 *
 *   GET    cms-admin/v1/network/users            {page, per_page, search}  super admin
 *   GET    cms-admin/v1/network/users/{id}       one user: sites, roles, posts per site; with
 *          {other_sites: true} (0.5.3) also archived sites it belongs to and sites it left that hold its posts
 *   GET    cms-admin/v1/network/sites/{site}/roles        that site's roles (0.5.2), as GET roles
 *   POST   cms-admin/v1/network/sites/{site}/users        {user, role}
 *   DELETE cms-admin/v1/network/sites/{site}/users/{id}   {reassign}
 *   POST   cms-admin/v1/network/super-admins/{id}
 *   DELETE cms-admin/v1/network/super-admins/{id}
 *   DELETE cms-admin/v1/network/users/{id}       {reassign}: every site's posts to the heir (0.5.3: other_sites too)
 *
 * Only a super admin may act across the network, checked with WordPress's own functions
 * (is_super_admin, manage_network_users) in every route's permission callback.
 * https://developer.wordpress.org/reference/functions/is_super_admin/
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    if (!is_multisite()) {
        return;
    }
    $ns = CMS_ADMIN_COMPANION_NAMESPACE;
    $can = 'cms_admin_network_permission';
    $id = ['id' => ['type' => 'integer', 'minimum' => 1, 'required' => true]];
    $reassign = ['reassign' => ['type' => 'integer', 'minimum' => 1]];
    register_rest_route($ns, '/network/users', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_network_users',
        'permission_callback' => $can,
        'args' => [
            'page' => ['type' => 'integer', 'minimum' => 1, 'default' => 1],
            'offset' => ['type' => 'integer', 'minimum' => 0],
            'per_page' => ['type' => 'integer', 'minimum' => 1, 'maximum' => 200, 'default' => 100],
            'search' => ['type' => 'string', 'default' => ''],
        ],
    ]);
    register_rest_route($ns, '/network/users/(?P<id>\d+)', [
        // `other_sites` (0.5.3): asked by a network delete only, as it visits every site of the network.
        ['methods' => WP_REST_Server::READABLE, 'callback' => 'cms_admin_network_user', 'permission_callback' => $can, 'args' => $id + ['other_sites' => ['type' => 'boolean', 'default' => false]]],
        ['methods' => WP_REST_Server::DELETABLE, 'callback' => 'cms_admin_network_delete_user', 'permission_callback' => $can, 'args' => $id + $reassign],
    ]);
    // A role's capabilities differ per site (a role editor plugin on one of them): what
    // add-user-to-site would give is read from the site it gives it on (0.5.2).
    register_rest_route($ns, '/network/sites/(?P<site>[\w-]+)/roles', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_network_site_roles',
        'permission_callback' => $can,
    ]);
    register_rest_route($ns, '/network/sites/(?P<site>[\w-]+)/users', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_network_add_member',
        'permission_callback' => $can,
        'args' => ['user' => ['type' => 'integer', 'minimum' => 1, 'required' => true], 'role' => ['type' => 'string', 'required' => true]],
    ]);
    register_rest_route($ns, '/network/sites/(?P<site>[\w-]+)/users/(?P<id>\d+)', [
        'methods' => WP_REST_Server::DELETABLE,
        'callback' => 'cms_admin_network_remove_member',
        'permission_callback' => $can,
        'args' => $id + $reassign,
    ]);
    register_rest_route($ns, '/network/super-admins/(?P<id>\d+)', [
        ['methods' => WP_REST_Server::CREATABLE, 'callback' => 'cms_admin_network_grant', 'permission_callback' => $can, 'args' => $id],
        ['methods' => WP_REST_Server::DELETABLE, 'callback' => 'cms_admin_network_revoke', 'permission_callback' => $can, 'args' => $id],
    ]);
});

/** A super admin, by WordPress's own account: a site administrator is refused on every route. */
function cms_admin_network_permission()
{
    if (is_super_admin() && current_user_can('manage_network_users')) {
        return true;
    }
    return new WP_Error(
        'cms_admin_not_super_admin',
        __('Only a super admin of the network may do this.', 'cms-admin-companion'),
        ['status' => rest_authorization_required_code()]
    );
}

function cms_admin_network_error(string $code, string $message, int $status = 400, array $data = []): WP_Error
{
    return new WP_Error($code, $message, ['status' => $status] + $data);
}

/** A site by id or by its path's slug ("sports"); "main" or "" is the main site. */
function cms_admin_network_site(string $ref)
{
    $network = get_network();
    if (ctype_digit($ref)) {
        $site = get_site((int) $ref);
    } elseif ($ref === 'main') {
        $site = get_site(get_main_site_id());
    } else {
        $found = get_sites(['network_id' => $network->id, 'path' => $network->path . $ref . '/', 'number' => 1]);
        $site = $found[0] ?? null;
    }
    if (!$site || (int) $site->network_id !== (int) $network->id || $site->deleted || $site->archived) {
        return cms_admin_network_error('cms_admin_unknown_site', sprintf('No site %s on this network.', $ref), 404);
    }
    return $site;
}

/** The site as answers name it: id, slug ('' for the main site), URL. */
function cms_admin_network_site_ref(WP_Site $site): array
{
    $network = get_network();
    return [
        'id' => (int) $site->blog_id,
        'slug' => trim(substr($site->path, strlen($network->path)), '/'),
        'url' => untrailingslashit(set_url_scheme('http://' . $site->domain . $site->path)),
    ];
}

function cms_admin_network_get_user(int $id)
{
    $user = get_userdata($id);
    return $user ?: cms_admin_network_error('rest_user_invalid_id', __('Invalid user ID.'), 404);
}

/** Role slugs per site id for these users, from their capabilities meta in one query. */
function cms_admin_network_roles(array $user_ids): array
{
    global $wpdb;
    $out = [];
    if (!$user_ids) {
        return $out;
    }
    $in = implode(',', array_map('intval', $user_ids));
    $rows = $wpdb->get_results(
        "SELECT user_id, meta_key, meta_value FROM {$wpdb->usermeta} WHERE user_id IN ($in) AND meta_key LIKE '" . esc_sql($wpdb->base_prefix) . "%capabilities'"
    );
    $prefix = preg_quote($wpdb->base_prefix, '/');
    foreach ($rows as $row) {
        if (!preg_match('/^' . $prefix . '(?:(\d+)_)?capabilities$/', $row->meta_key, $m)) {
            continue;
        }
        $caps = maybe_unserialize($row->meta_value);
        if (!is_array($caps)) {
            continue;
        }
        $blog = isset($m[1]) && $m[1] !== '' ? (int) $m[1] : 1;
        $out[(int) $row->user_id][$blog] = array_keys(array_filter($caps));
    }
    return $out;
}

/** One user on the network: super admin or not, and each site they belong to with the role there. */
function cms_admin_network_user_record(WP_User $user, array $roles, array $sites): array
{
    $memberships = [];
    foreach ($roles as $blog => $slugs) {
        if (!isset($sites[$blog])) {
            continue; // a site deleted or of another network
        }
        $memberships[] = ['site' => $sites[$blog]['slug'], 'site_id' => $blog, 'roles' => $slugs];
    }
    return [
        'id' => $user->ID,
        'username' => $user->user_login,
        'name' => $user->display_name,
        'super_admin' => is_super_admin($user->ID),
        'sites' => $memberships,
    ];
}

/** The network's sites by id (slug, URL). */
function cms_admin_network_sites(): array
{
    $sites = [];
    foreach (get_sites(['network_id' => get_current_network_id(), 'number' => 0, 'deleted' => 0, 'archived' => 0]) as $site) {
        $sites[(int) $site->blog_id] = cms_admin_network_site_ref($site);
    }
    return $sites;
}

require_once __DIR__ . '/network-content.php';
require_once __DIR__ . '/network-writes.php';
