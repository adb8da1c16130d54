<?php
/**
 * A network account's posts on every site (0.5.3): archived sites, and sites it was removed
 * from, hold its posts too, and a network delete hands those over as well (network-writes.php).
 */

if (!defined('ABSPATH')) {
    exit;
}

/**
 * Every site of the network where the user authored posts (any type but revisions, any status),
 * archived, spam and deactivated sites too: site id => count (0.5.3). wpmu_delete_user() visits
 * only the sites the account still belongs to that are not archived (get_blogs_of_user()), so
 * posts on a site it was removed from (wp-admin's Remove keeps them) or on an archived site
 * kept the deleted id. https://developer.wordpress.org/reference/functions/wpmu_delete_user/
 */
function cms_admin_network_posts_everywhere(int $user_id): array
{
    $sites = get_sites(['network_id' => get_current_network_id(), 'number' => 0, 'fields' => 'ids']);
    return array_filter(cms_admin_network_posts_by_site($user_id, array_map('intval', $sites)));
}

/** Why a site is not among a user's listed sites: archived, spam or deactivated (null: active). */
function cms_admin_network_site_inactive(WP_Site $site): ?string
{
    if ((int) $site->archived) {
        return 'archived';
    }
    if ((int) $site->spam) {
        return 'spam';
    }
    return (int) $site->deleted ? 'deactivated' : null;
}

/**
 * The user's other sites (0.5.3): those not in `sites` (which lists active memberships) where
 * the account has posts or a membership — an archived site it belongs to, a site it was removed
 * from that still holds its posts. A network delete hands their posts over too.
 */
function cms_admin_network_other_sites(WP_User $user, array $listed, array $roles): array
{
    $posts = cms_admin_network_posts_everywhere($user->ID);
    $member = array_map('intval', array_keys(get_blogs_of_user($user->ID, true)));
    $out = [];
    foreach (array_unique(array_merge(array_keys($posts), $member)) as $blog) {
        $site = get_site($blog);
        if (!$site || in_array($blog, $listed, true)) {
            continue;
        }
        $out[] = [
            'site' => cms_admin_network_site_ref($site)['slug'],
            'site_id' => $blog,
            'member' => in_array($blog, $member, true),
            'roles' => $roles[$blog] ?? [],
            'inactive' => cms_admin_network_site_inactive($site),
            'posts' => $posts[$blog] ?? 0,
        ];
    }
    return $out;
}

/**
 * A site the user does not belong to (any more) but wrote on: its posts and links go to the
 * heir as remove_user_from_blog() hands them over, without that membership's hooks.
 */
function cms_admin_network_reassign_posts(int $user_id, WP_Site $site, int $heir): array
{
    global $wpdb;
    // Counted as the question counts them (revisions left out); all of them change hands.
    $count = cms_admin_network_posts_by_site($user_id, [(int) $site->blog_id])[(int) $site->blog_id];
    switch_to_blog((int) $site->blog_id);
    try {
        $post_ids = $wpdb->get_col($wpdb->prepare("SELECT ID FROM {$wpdb->posts} WHERE post_author = %d", $user_id));
        $link_ids = $wpdb->get_col($wpdb->prepare("SELECT link_id FROM {$wpdb->links} WHERE link_owner = %d", $user_id));
        if ($post_ids) {
            $wpdb->query($wpdb->prepare("UPDATE {$wpdb->posts} SET post_author = %d WHERE post_author = %d", $heir, $user_id));
            array_walk($post_ids, 'clean_post_cache');
        }
        if ($link_ids) {
            $wpdb->query($wpdb->prepare("UPDATE {$wpdb->links} SET link_owner = %d WHERE link_owner = %d", $heir, $user_id));
            array_walk($link_ids, 'clean_bookmark_cache');
        }
    } finally {
        restore_current_blog();
    }
    return ['site' => cms_admin_network_site_ref($site), 'posts_reassigned' => $count, 'reassigned_to' => $heir];
}

/**
 * Whether the user has a role entry on the site, archived, spam or deactivated sites too:
 * is_user_member_of_blog() answers false for every account on those, so an heir could never
 * be found there. https://developer.wordpress.org/reference/functions/is_user_member_of_blog/
 */
function cms_admin_network_belongs(int $user_id, int $blog): bool
{
    global $wpdb;
    return is_array(get_user_meta($user_id, $wpdb->get_blog_prefix($blog) . 'capabilities', true));
}
