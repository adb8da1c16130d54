<?php
/**
 * POST cms-admin/v1/users/bulk-delete (0.7.0, account-bulk.php): deletes accounts a change made
 * (an import's undo), each only if it is still as that change left it — what core's
 * DELETE /wp/v2/users/{id} does one request at a time, with offboarding.php's guards.
 *
 * "As the change left it" (#59.8): no posts of any type or status (revisions included: an
 * account that edited someone's post authored the revision), no links, no comments, no
 * capability grants or denials of its own, no application passwords, and the roles and email
 * the caller expects. Anything else is `skipped` with what it has now, unless `force`: then it is
 * deleted, its posts and links go to `reassign` (wp_delete_user()), and its comments keep their
 * name and email but no longer point at the deleted account (core would leave their user_id).
 */

if (!defined('ABSPATH')) {
    exit;
}

function cms_admin_register_bulk_delete(string $ns, array $budget): void
{
    register_rest_route($ns, '/users/bulk-delete', [
        'methods' => WP_REST_Server::CREATABLE,
        'callback' => 'cms_admin_bulk_delete',
        'permission_callback' => static fn () => current_user_can('delete_users'),
        'args' => [
            'items' => [
                'type' => 'array',
                'required' => true,
                'maxItems' => 1000,
                'items' => [
                    'type' => 'object',
                    'properties' => [
                        'id' => ['type' => 'integer', 'minimum' => 1],
                        'expect' => ['type' => 'object', 'properties' => ['roles' => ['type' => 'array', 'items' => ['type' => 'string']], 'email' => ['type' => 'string']]],
                    ],
                    'required' => ['id'],
                ],
            ],
            'force' => ['type' => 'boolean', 'default' => false],
            // Judge every account as a delete would, delete none (an undo's question).
            'dry_run' => ['type' => 'boolean', 'default' => false],
            'reassign' => ['type' => 'integer', 'minimum' => 0, 'default' => 0],
            'budget_ms' => $budget,
        ],
    ]);
}

function cms_admin_bulk_delete(WP_REST_Request $request)
{
    // As core's users route: a network's accounts are removed from sites, not deleted, there.
    if (is_multisite()) {
        return new WP_Error('rest_cannot_delete', __('The user cannot be deleted.'), ['status' => 501]);
    }
    $force = (bool) $request['force'];
    $heir = (int) $request['reassign'];
    if ($heir && (!($to = get_userdata($heir)) || !user_can($to, 'edit_posts'))) {
        return new WP_Error('cms_admin_invalid_reassign', __('The posts must go to another existing user who can write posts (edit_posts).', 'cms-admin-companion'), ['status' => 400]);
    }
    // wp_delete_user() and wp_delete_link() are wp-admin's (see offboarding.php).
    require_once ABSPATH . 'wp-admin/includes/user.php';
    require_once ABSPATH . 'wp-admin/includes/bookmark.php';
    $spent = cms_admin_bulk_clock($request);
    $items = (array) $request['items'];
    $done = [];
    foreach ($items as $i => $item) {
        if ($i > 0 && $spent()) {
            break;
        }
        $done[] = cms_admin_bulk_delete_item((int) $item['id'], (array) ($item['expect'] ?? []), $force, $heir, (bool) $request['dry_run']);
    }
    return cms_admin_bulk_answer($done, count($items));
}

function cms_admin_bulk_delete_item(int $id, array $expect, bool $force, int $heir, bool $dry_run = false): array
{
    $user = cms_admin_bulk_fresh_user($id);
    if (!$user) {
        return cms_admin_bulk_item($id, 'gone', null, ['reason' => 'no such account (deleted already)']);
    }
    if (get_current_user_id() === $id) {
        return cms_admin_bulk_refused($id, $user, new WP_Error('cms_admin_cannot_delete_self', __('You cannot delete the account you are signed in with.', 'cms-admin-companion')));
    }
    if ($heir === $id) {
        return cms_admin_bulk_refused($id, $user, new WP_Error('cms_admin_invalid_reassign', __('The posts must go to another existing user who can write posts (edit_posts).', 'cms-admin-companion')));
    }
    if (!current_user_can('delete_user', $id)) {
        return cms_admin_bulk_refused($id, $user, cms_admin_refuse_stronger_account($user, 'delete')
            ?? new WP_Error('rest_user_cannot_delete', __('Sorry, you are not allowed to delete this user.')));
    }
    $result = cms_admin_with_administrators_lock(static function () use ($id, $expect, $force, $heir, $dry_run) {
        // Read and judged under the lock, and deleted in the same step.
        $user = cms_admin_bulk_fresh_user($id);
        if (!$user) {
            return 'gone';
        }
        $since = $force ? [] : cms_admin_changes_since($user, $expect);
        if ($since) {
            return $since;
        }
        $last = cms_admin_refuse_last_administrator($user);
        if ($last) {
            return new WP_Error('cms_admin_last_administrator', sprintf(__('%s is the last enabled administrator; deleting it would leave the site without one.', 'cms-admin-companion'), $user->user_login));
        }
        if ($dry_run) {
            return 'would_delete';
        }
        global $wpdb;
        $comments = $force ? array_map('intval', $wpdb->get_col($wpdb->prepare("SELECT comment_ID FROM {$wpdb->comments} WHERE user_id = %d", $id))) : [];
        if ($comments) {
            $wpdb->query($wpdb->prepare("UPDATE {$wpdb->comments} SET user_id = 0 WHERE user_id = %d", $id));
            clean_comment_cache($comments);
        }
        return wp_delete_user($id, $heir ?: null) ? ['comments_unlinked' => count($comments)] : new WP_Error('cms_admin_delete_failed', __('WordPress did not delete the account.', 'cms-admin-companion'));
    });
    if ('gone' === $result || 'would_delete' === $result) {
        return cms_admin_bulk_item($id, $result, $user, 'gone' === $result ? ['reason' => 'no such account (deleted already)'] : []);
    }
    if (is_wp_error($result)) {
        return cms_admin_bulk_refused($id, $user, $result);
    }
    if (isset($result['comments_unlinked'])) {
        return cms_admin_bulk_item($id, 'deleted', $user, $result['comments_unlinked'] ? $result : []);
    }
    return cms_admin_bulk_item($id, 'skipped', $user, ['changes' => $result, 'reason' => 'changed since: ' . implode('; ', $result)]);
}

/** What the account has that the change that made it did not give it, in words; empty when none. */
function cms_admin_changes_since(WP_User $user, array $expect): array
{
    global $wpdb;
    $id = $user->ID;
    $count = static fn (string $sql) => (int) $wpdb->get_var($wpdb->prepare($sql, $id));
    $since = [];
    $posts = $count("SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_author = %d AND post_status <> 'auto-draft'");
    if ($posts) {
        $since[] = sprintf('%d post(s) of any type, revisions included', $posts);
    }
    $links = $count("SELECT COUNT(*) FROM {$wpdb->links} WHERE link_owner = %d");
    if ($links) {
        $since[] = sprintf('%d link(s)', $links);
    }
    $comments = $count("SELECT COUNT(*) FROM {$wpdb->comments} WHERE user_id = %d");
    if ($comments) {
        $since[] = sprintf('%d comment(s)', $comments);
    }
    $own = cms_admin_user_own_caps($user);
    if ($own) {
        $since[] = 'capabilities of its own (' . implode(', ', array_slice(array_keys($own), 0, 5)) . ')';
    }
    $passwords = count(WP_Application_Passwords::get_user_application_passwords($id));
    if ($passwords) {
        $since[] = sprintf('%d application password(s)', $passwords);
    }
    if (isset($expect['roles']) && cms_admin_sorted($user->roles) !== cms_admin_sorted((array) $expect['roles'])) {
        $say = static fn (array $roles) => $roles ? implode(', ', cms_admin_sorted($roles)) : 'no role';
        $since[] = sprintf('the role %s now (was %s)', $say($user->roles), $say((array) $expect['roles']));
    }
    if (isset($expect['email']) && 0 !== strcasecmp((string) $expect['email'], $user->user_email)) {
        $since[] = 'another email address';
    }
    return $since;
}
