<?php
/**
 * The network routes' callbacks (network.php registers them and checks the caller is a super admin).
 */

if (!defined('ABSPATH')) {
    exit;
}

function cms_admin_network_users(WP_REST_Request $request): array
{
    $query = new WP_User_Query([
        'blog_id' => 0, // every account of the network, members of a site or not
        'number' => (int) $request['per_page'],
        'paged' => (int) $request['page'],
        // An offset wins over the page (WP_User_Query): the toolkit reads any window of the listing.
        'offset' => isset($request['offset']) ? (int) $request['offset'] : null,
        'orderby' => 'ID',
        'order' => 'ASC',
        'search' => $request['search'] !== '' ? '*' . $request['search'] . '*' : '',
        'search_columns' => ['user_login', 'user_email', 'display_name'],
        'count_total' => true,
    ]);
    $users = $query->get_results();
    $roles = cms_admin_network_roles(wp_list_pluck($users, 'ID'));
    $sites = cms_admin_network_sites();
    $items = [];
    foreach ($users as $user) {
        $items[] = cms_admin_network_user_record($user, $roles[$user->ID] ?? [], $sites);
    }
    $total = (int) $query->get_total();
    return [
        'users' => $items,
        'total' => $total,
        'total_pages' => (int) ceil($total / max(1, (int) $request['per_page'])),
        'sites' => array_values($sites),
    ];
}

/** Posts (any type but revisions, any status) the user authored on each of these sites. */
function cms_admin_network_posts_by_site(int $user_id, array $site_ids): array
{
    global $wpdb;
    $out = [];
    foreach ($site_ids as $blog) {
        switch_to_blog($blog);
        $out[$blog] = (int) $wpdb->get_var($wpdb->prepare("SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_author = %d AND post_type <> 'revision'", $user_id));
        restore_current_blog();
    }
    return $out;
}

function cms_admin_network_user(WP_REST_Request $request)
{
    $user = cms_admin_network_get_user((int) $request['id']);
    if (is_wp_error($user)) {
        return $user;
    }
    $roles = cms_admin_network_roles([$user->ID])[$user->ID] ?? [];
    $record = cms_admin_network_user_record($user, $roles, cms_admin_network_sites());
    $listed = array_map('intval', wp_list_pluck($record['sites'], 'site_id'));
    $posts = cms_admin_network_posts_by_site($user->ID, $listed);
    foreach ($record['sites'] as &$site) {
        $site['posts'] = $posts[$site['site_id']];
    }
    unset($site);
    if ($request['other_sites']) {
        $record['other_sites'] = cms_admin_network_other_sites($user, $listed, $roles);
    }
    $record['super_admins'] = count(get_super_admins());
    return $record;
}

/** One site's roles, as GET roles answers on that site (wp_roles() follows switch_to_blog). */
function cms_admin_network_site_roles(WP_REST_Request $request)
{
    $site = cms_admin_network_site((string) $request['site']);
    if (is_wp_error($site)) {
        return $site;
    }
    switch_to_blog((int) $site->blog_id);
    try {
        $roles = cms_admin_rest_roles();
    } finally {
        restore_current_blog();
    }
    return $roles + ['site' => cms_admin_network_site_ref($site)];
}

function cms_admin_network_add_member(WP_REST_Request $request)
{
    $site = cms_admin_network_site((string) $request['site']);
    $user = is_wp_error($site) ? $site : cms_admin_network_get_user((int) $request['user']);
    if (is_wp_error($user)) {
        return $user;
    }
    $role = (string) $request['role'];
    switch_to_blog((int) $site->blog_id);
    $known = wp_roles()->is_role($role);
    $member = is_user_member_of_blog($user->ID, (int) $site->blog_id);
    restore_current_blog();
    if (!$known) {
        return cms_admin_network_error('cms_admin_unknown_role', sprintf('No role %s on site %s.', $role, $request['site']));
    }
    if ($member) {
        return cms_admin_network_error('cms_admin_already_member', sprintf('%s already belongs to site %s; change their role there instead.', $user->user_login, $request['site']), 409);
    }
    $added = add_user_to_blog((int) $site->blog_id, $user->ID, $role);
    if (is_wp_error($added)) {
        return cms_admin_rest_error($added, 400);
    }
    return ['id' => $user->ID, 'username' => $user->user_login, 'site' => cms_admin_network_site_ref($site), 'roles' => [$role]];
}

/** Hands the user's posts on one site to the heir (who must belong to it) and takes the user off it. */
function cms_admin_network_leave_site(WP_User $user, WP_Site $site, int $heir)
{
    $blog = (int) $site->blog_id;
    $posts = cms_admin_network_posts_by_site($user->ID, [$blog])[$blog];
    if ($posts > 0 && !$heir) {
        return cms_admin_network_error('cms_admin_content_needs_heir', sprintf('%s has %d post(s) on site %s: say who gets them (reassign).', $user->user_login, $posts, cms_admin_network_site_ref($site)['slug'] ?: 'main'), 409, ['posts' => $posts]);
    }
    if ($posts > 0 && !cms_admin_network_belongs($heir, $blog)) {
        return cms_admin_network_error('cms_admin_heir_not_member', sprintf('User %d does not belong to site %s, so cannot take its posts.', $heir, cms_admin_network_site_ref($site)['slug'] ?: 'main'), 409);
    }
    $removed = remove_user_from_blog($user->ID, $blog, $posts > 0 ? $heir : 0);
    if (is_wp_error($removed)) {
        return cms_admin_rest_error($removed, 400);
    }
    return ['site' => cms_admin_network_site_ref($site), 'posts_reassigned' => $posts, 'reassigned_to' => $posts > 0 ? $heir : null];
}

function cms_admin_network_remove_member(WP_REST_Request $request)
{
    $site = cms_admin_network_site((string) $request['site']);
    $user = is_wp_error($site) ? $site : cms_admin_network_get_user((int) $request['id']);
    if (is_wp_error($user)) {
        return $user;
    }
    if (!is_user_member_of_blog($user->ID, (int) $site->blog_id)) {
        return cms_admin_network_error('cms_admin_not_member', sprintf('%s does not belong to site %s.', $user->user_login, $request['site']), 404);
    }
    $done = cms_admin_network_leave_site($user, $site, (int) $request['reassign']);
    return is_wp_error($done) ? $done : ['id' => $user->ID, 'username' => $user->user_login] + $done;
}

function cms_admin_network_grant(WP_REST_Request $request)
{
    $user = cms_admin_network_get_user((int) $request['id']);
    if (is_wp_error($user)) {
        return $user;
    }
    $was = is_super_admin($user->ID);
    if (!$was && !grant_super_admin($user->ID)) {
        return cms_admin_network_error('cms_admin_grant_failed', 'WordPress did not grant super admin (super admins fixed in wp-config.php by $super_admins?).', 500);
    }
    return ['id' => $user->ID, 'username' => $user->user_login, 'super_admin' => true, 'was_super_admin' => $was];
}

function cms_admin_network_revoke(WP_REST_Request $request)
{
    $user = cms_admin_network_get_user((int) $request['id']);
    if (is_wp_error($user)) {
        return $user;
    }
    if (!is_super_admin($user->ID)) {
        return ['id' => $user->ID, 'username' => $user->user_login, 'super_admin' => false, 'was_super_admin' => false];
    }
    if (count(get_super_admins()) <= 1) {
        return cms_admin_network_error('cms_admin_last_super_admin', sprintf('%s is the network\'s only super admin; grant another account first.', $user->user_login), 409);
    }
    // Core refuses (returns false) for the account whose email is the network's admin email.
    // https://developer.wordpress.org/reference/functions/revoke_super_admin/
    if (!revoke_super_admin($user->ID)) {
        return cms_admin_network_error('cms_admin_revoke_refused', sprintf('WordPress keeps %s a super admin: its email is the network admin email (Network Settings), or super admins are fixed in wp-config.php.', $user->user_login), 409);
    }
    return ['id' => $user->ID, 'username' => $user->user_login, 'super_admin' => false, 'was_super_admin' => true];
}

/**
 * The account off the network: its posts on each site go to the heir first (wpmu_delete_user
 * would delete them), then the account. Refused whole when a site's content has no heir there.
 * https://developer.wordpress.org/reference/functions/wpmu_delete_user/
 */
function cms_admin_network_delete_user(WP_REST_Request $request)
{
    require_once ABSPATH . 'wp-admin/includes/ms.php';
    $user = cms_admin_network_get_user((int) $request['id']);
    if (is_wp_error($user)) {
        return $user;
    }
    if ($user->ID === get_current_user_id()) {
        return cms_admin_network_error('cms_admin_cannot_delete_self', 'You cannot delete the account you are signed in with.');
    }
    if (is_super_admin($user->ID)) {
        return cms_admin_network_error('cms_admin_delete_super_admin', sprintf('%s is a super admin: revoke super admin first (WordPress never deletes one).', $user->user_login), 409);
    }
    $heir = (int) $request['reassign'];
    if ($heir === $user->ID || ($heir && !get_userdata($heir))) {
        return cms_admin_network_error('cms_admin_bad_heir', 'The account to give the posts to must be another existing user.');
    }
    // Every site with its posts, archived ones and ones it was removed from too (0.5.3).
    $posts = cms_admin_network_posts_everywhere($user->ID);
    $blocked = [];
    foreach ($posts as $blog => $count) {
        if (!$heir || !cms_admin_network_belongs($heir, $blog)) {
            $blocked[] = (cms_admin_network_site_ref(get_site($blog))['slug'] ?: 'main') . " ($count)";
        }
    }
    if ($blocked) {
        return cms_admin_network_error('cms_admin_content_needs_heir', sprintf('%s has posts on %s: give them to a user who belongs to each of those sites (reassign).', $user->user_login, implode(', ', $blocked)), 409);
    }
    // Memberships of archived, spam and deactivated sites too: get_blogs_of_user($id, true).
    $members = array_map('intval', array_keys(get_blogs_of_user($user->ID, true)));
    $sites = [];
    foreach ($members as $blog) {
        $site = get_site($blog);
        $done = cms_admin_network_leave_site($user, $site, $heir);
        if (is_wp_error($done)) {
            return $done;
        }
        $sites[] = $done + ['member' => true, 'inactive' => cms_admin_network_site_inactive($site)];
    }
    foreach (array_keys($posts) as $blog) {
        if (!in_array($blog, $members, true)) {
            $site = get_site($blog);
            $sites[] = cms_admin_network_reassign_posts($user->ID, $site, $heir) + ['member' => false, 'inactive' => cms_admin_network_site_inactive($site)];
        }
    }
    if (!wpmu_delete_user($user->ID)) {
        return cms_admin_network_error('cms_admin_delete_failed', 'WordPress did not delete the account.', 500);
    }
    return ['id' => $user->ID, 'username' => $user->user_login, 'deleted' => true, 'sites' => $sites];
}
