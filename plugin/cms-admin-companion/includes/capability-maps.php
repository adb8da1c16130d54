<?php
/**
 * Power judged in one place, from capability maps (0.7.0, issue #58).
 *
 * WordPress builds an account's capabilities (WP_User::get_role_caps()) by merging its roles'
 * maps in order and then its own `caps` entries over them — and those entries hold its role slugs
 * as keys => true. So an account holding a role whose slug is `manage_options` really holds
 * manage_options. https://developer.wordpress.org/reference/classes/wp_user/get_role_caps/
 * A string is therefore judged by what it is, never by whether a role of that name exists: no
 * role may take a capability's name as its slug (here, for every route), and a key of an account's
 * map is "not a capability" only when it is one of its role slugs AND no capability's name.
 * The one table (capabilities.json) is shared with the toolkit (src/tools/users/capability-table.ts).
 */

if (!defined('ABSPATH')) {
    exit;
}

/** capabilities.json: `powerful` (in order, with words), `harmless`, `never_beyond`, `wordpress`, `meta`, `network`. */
function cms_admin_capability_table(): array
{
    static $table = null;
    return $table ??= (array) json_decode((string) file_get_contents(__DIR__ . '/capabilities.json'), true);
}

/** A capability whatever the site holds: WordPress's own, meta and network ones, the table's, level_N. */
function cms_admin_is_known_capability(string $cap): bool
{
    static $known = null;
    if (null === $known) {
        $t = cms_admin_capability_table();
        $known = array_fill_keys(array_merge($t['wordpress'], $t['meta'], $t['network'], $t['harmless'], array_keys($t['powerful'])), true);
    }
    return isset($known[$cap]) || 1 === preg_match('/^level_\d+$/', $cap);
}

/** level_0 … level_2, Author's user levels (custom roles rarely carry them): never "beyond" anyone. */
function cms_admin_never_beyond(string $cap): bool
{
    return in_array($cap, cms_admin_capability_table()['never_beyond'], true);
}

/** A capability's name on this site: a known one, or a key of any role's map (granted or denied). */
function cms_admin_is_capability_name(string $cap): bool
{
    if (cms_admin_is_known_capability($cap)) {
        return true;
    }
    foreach (wp_roles()->roles as $role) {
        if (array_key_exists($cap, (array) ($role['capabilities'] ?? []))) {
            return true;
        }
    }
    return false;
}

/** Whether some account's own entries name `$cap` (granted or denied): a capability too. */
function cms_admin_is_own_entry(string $cap): bool
{
    global $wpdb;
    $like = '%' . $wpdb->esc_like('"' . $cap . '"') . '%';
    $rows = $wpdb->get_col($wpdb->prepare(
        "SELECT meta_value FROM {$wpdb->usermeta} WHERE meta_key = %s AND meta_value LIKE %s",
        $wpdb->get_blog_prefix() . 'capabilities',
        $like
    ));
    foreach ($rows as $row) {
        $entries = maybe_unserialize($row);
        if (is_array($entries) && array_key_exists($cap, $entries)) {
            return true;
        }
    }
    return false;
}

/** A 400 when a new role's slug is a capability's name (any route, any caller, an administrator too). */
function cms_admin_refuse_capability_slug(string $slug): ?WP_Error
{
    if (!cms_admin_is_capability_name($slug) && !cms_admin_is_own_entry($slug)) {
        return null;
    }
    return new WP_Error(
        'cms_admin_role_slug_is_capability',
        sprintf(
            /* translators: %s: role slug */
            __('%s is a capability’s name: a role with that slug would give that capability to every account holding it (WordPress counts an account’s role slugs among its capabilities). Choose another slug.', 'cms-admin-companion'),
            $slug
        ),
        ['status' => 400]
    );
}

/**
 * An account's map as WordPress builds it: the maps of the roles among its entries, in their order,
 * then its entries over them. `$roles` replaces roles' maps (slug => map; null: the role is gone),
 * `$entries` its stored entries (role slugs and own grants and denials).
 */
function cms_admin_effective_caps(WP_User $user, array $roles = [], ?array $entries = null): array
{
    $entries ??= (array) $user->caps;
    $all = [];
    foreach (array_keys($entries) as $key) {
        $key = (string) $key;
        if (array_key_exists($key, $roles)) {
            $all = array_merge($all, (array) ($roles[$key] ?? []));
        } elseif (wp_roles()->is_role($key)) {
            $all = array_merge($all, (array) get_role($key)->capabilities);
        }
    }
    return array_merge($all, $entries);
}

/** The powers a map grants: keys that are capabilities (capability names or no role's slug), level_0 … level_2 left out. */
function cms_admin_powers_of(array $map): array
{
    $out = [];
    foreach ($map as $cap => $granted) {
        $cap = (string) $cap;
        if ($granted && cms_admin_is_capability($cap) && !cms_admin_never_beyond($cap)) {
            $out[] = $cap;
        }
    }
    return $out;
}

/** The caller holds `$cap`: granted to it (a site constant may take it now, it comes back), or current_user_can(). */
function cms_admin_caller_holds(string $cap): bool
{
    return (is_multisite() && is_super_admin()) || !empty(wp_get_current_user()->allcaps[$cap]) || current_user_can($cap);
}

/**
 * Entries a change sets, flips or drops (`$old` → `$new`, a role's map or an account's own
 * entries) that the caller does not hold: denials count as much as grants (#58, findings 2 and 9).
 */
function cms_admin_entries_beyond_caller(array $old, array $new): array
{
    $beyond = [];
    foreach (array_unique(array_merge(array_keys($old), array_keys($new))) as $cap) {
        $cap = (string) $cap;
        $was = array_key_exists($cap, $old) ? (bool) $old[$cap] : null;
        $is = array_key_exists($cap, $new) ? (bool) $new[$cap] : null;
        if ($was !== $is && cms_admin_is_capability($cap) && !cms_admin_never_beyond($cap) && !cms_admin_caller_holds($cap)) {
            $beyond[] = $cap;
        }
    }
    return cms_admin_power_first($beyond);
}

/** What holding role `$slug` grants: its map's grants, and its slug when that is a capability's name. */
function cms_admin_role_grants(string $slug, array $map): array
{
    return cms_admin_is_capability_name($slug) ? $map + [$slug => true] : $map;
}
