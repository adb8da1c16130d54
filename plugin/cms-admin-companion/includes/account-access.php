<?php
/**
 * The `cms_access` field on /wp/v2/users (0.7.0, edit context): what an unfinished import needs
 * to know of an account it made (import-users, #59.10) — whether a set-password link is pending
 * (when it was made; never the key) and whether it has a login session. An account with neither
 * never got in.
 */

if (!defined('ABSPATH')) {
    exit;
}

add_action('rest_api_init', static function (): void {
    register_rest_field('user', 'cms_access', [
        'get_callback' => static fn (array $user) => cms_admin_account_access((int) $user['id']),
        'schema' => [
            'description' => 'Whether a set-password link is pending (made when) and whether the account has a login session (cms-admin-companion).',
            'type' => 'object',
            'context' => ['edit'],
            'readonly' => true,
        ],
    ]);
});

/** Whether a set-password link is pending (and since when) and whether the account has a login session. */
function cms_admin_account_access(int $id): array
{
    $user = get_userdata($id);
    $key = $user ? (string) $user->user_activation_key : '';
    // "time:hash" since WordPress 4.3; only the time leaves the server.
    $made = str_contains($key, ':') ? (int) strtok($key, ':') : 0;
    $sessions = get_user_meta($id, 'session_tokens', true);
    return [
        'link_made' => '' === $key ? null : ($made ? gmdate('Y-m-d\TH:i:s\Z', $made) : 'unknown'),
        'signed_in' => is_array($sessions) && count($sessions) > 0,
    ];
}
