<?php
/**
 * Near-duplicate terms in one pass (0.7.0, issue #61): what find-duplicate-terms groups.
 *
 *   GET cms-admin/v1/term-duplicates?taxonomy=<slug>[&offset=0&per_page=50&snapshot=<id>]
 *       → {total, snapshot, groups: [{key, terms: [{id, name, slug, parent, posts}]}]}
 *
 * One read of the taxonomy's names, grouped here by the toolkit's own key (duplicateKey in
 * src/tools/taxonomy/find-duplicate-terms.ts, character data in duplicate-key-data.json), then
 * one aggregate of the objects holding the grouped terms only (every type and status, auto-drafts
 * aside, as term-usage counts them). Groups by key, each group's terms most used first.
 *
 * The first page keeps its result as a transient (per taxonomy, 15 minutes) under a new
 * `snapshot` id; later pages with that id are cut from it, not read again, so a listing followed
 * to its end reads the terms once and does not shift under merges made meanwhile. Another id (a
 * newer first page replaced it, or it expired) reads the terms again.
 */

if (!defined('ABSPATH')) {
    exit;
}

const CMS_ADMIN_DUPLICATES_TTL = 15 * MINUTE_IN_SECONDS;
/** A snapshot larger than this (serialised) is not kept: every page then reads the terms again. */
const CMS_ADMIN_DUPLICATES_MAX_BYTES = 4 * MB_IN_BYTES;

add_action('rest_api_init', static function (): void {
    register_rest_route(CMS_ADMIN_COMPANION_NAMESPACE, '/term-duplicates', [
        'methods' => WP_REST_Server::READABLE,
        'callback' => 'cms_admin_rest_term_duplicates',
        'permission_callback' => static function (WP_REST_Request $request) {
            $object = get_taxonomy((string) $request['taxonomy']);
            return $object && current_user_can($object->cap->manage_terms);
        },
        'args' => [
            'taxonomy' => [
                'type' => 'string',
                'required' => true,
                'validate_callback' => static fn ($value) => is_string($value) && taxonomy_exists($value),
            ],
            'offset' => ['type' => 'integer', 'minimum' => 0, 'default' => 0],
            'per_page' => ['type' => 'integer', 'minimum' => 1, 'maximum' => 500, 'default' => 50],
            'snapshot' => ['type' => 'string', 'maxLength' => 64],
        ],
    ]);
});

function cms_admin_rest_term_duplicates(WP_REST_Request $request)
{
    $taxonomy = (string) $request['taxonomy'];
    $transient = 'cms_admin_dups_' . md5($taxonomy);
    $wanted = (string) $request['snapshot'];
    $snapshot = '' === $wanted ? false : get_transient($transient);
    if (!is_array($snapshot) || ($snapshot['id'] ?? null) !== $wanted) {
        $snapshot = ['id' => wp_generate_password(12, false), 'groups' => cms_admin_duplicate_groups($taxonomy)];
        if (strlen(serialize($snapshot)) <= CMS_ADMIN_DUPLICATES_MAX_BYTES) {
            set_transient($transient, $snapshot, CMS_ADMIN_DUPLICATES_TTL);
        }
    }
    $page = array_slice($snapshot['groups'], (int) $request['offset'], (int) $request['per_page']);
    $terms = static fn (array $rows) => array_map(static fn ($t) => [
        'id' => $t[0], 'name' => $t[1], 'slug' => $t[2], 'parent' => $t[3], 'posts' => $t[4],
    ], $rows);
    return rest_ensure_response([
        'total' => count($snapshot['groups']),
        'snapshot' => $snapshot['id'],
        'groups' => array_map(static fn ($g) => ['key' => $g[0], 'terms' => $terms($g[1])], $page),
    ]);
}

/**
 * Every group of two or more terms sharing a key, in the key's order (UTF-16 code units, as the
 * toolkit compares cursor keys): [[key, [[id, name, slug, parent, posts], …]], …].
 */
function cms_admin_duplicate_groups(string $taxonomy): array
{
    global $wpdb;
    $default = cms_admin_default_term($taxonomy);
    $rows = $wpdb->get_results($wpdb->prepare(
        "SELECT t.term_id, t.name, t.slug, tt.parent FROM {$wpdb->terms} t
        JOIN {$wpdb->term_taxonomy} tt ON tt.term_id = t.term_id WHERE tt.taxonomy = %s AND t.term_id <> %d",
        $taxonomy,
        $default
    ), ARRAY_N);
    $keys = cms_admin_duplicate_keys(array_map(static fn ($row) => html_entity_decode($row[1], ENT_QUOTES | ENT_HTML5, 'UTF-8'), $rows));
    $by_key = [];
    foreach ($rows as $i => $row) {
        $key = $keys[$i];
        if ('' !== $key) {
            $by_key[$key][] = [(int) $row[0], $row[1], $row[2], (int) $row[3], 0];
        }
    }
    unset($rows);
    $groups = array_filter($by_key, static fn ($terms) => count($terms) > 1);
    $posts = cms_admin_objects_per_term($taxonomy, array_merge(...array_map(
        static fn ($terms) => array_column($terms, 0),
        array_values($groups) ?: [[]]
    )));
    $out = [];
    foreach ($groups as $key => $terms) {
        foreach ($terms as &$term) {
            $term[4] = $posts[$term[0]] ?? 0;
        }
        unset($term);
        usort($terms, static fn ($a, $b) => $b[4] <=> $a[4] ?: $a[0] <=> $b[0]);
        $out[] = [(string) $key, $terms];
    }
    $order = static fn (string $key) => function_exists('mb_convert_encoding') ? mb_convert_encoding($key, 'UTF-16BE', 'UTF-8') : $key;
    $sort = array_map(static fn ($g) => $order($g[0]), $out);
    array_multisort($sort, SORT_STRING, $out);
    return $out;
}

/** Objects of every type and status holding each term (auto-drafts aside), 5,000 terms a query. */
function cms_admin_objects_per_term(string $taxonomy, array $ids): array
{
    global $wpdb;
    $counts = [];
    foreach (array_chunk($ids, 5000) as $chunk) {
        $rows = $wpdb->get_results($wpdb->prepare(
            "SELECT tt.term_id, COUNT(DISTINCT tr.object_id) FROM {$wpdb->term_relationships} tr
            JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id
            LEFT JOIN {$wpdb->posts} p ON p.ID = tr.object_id
            WHERE tt.taxonomy = %s AND tt.term_id IN (" . cms_admin_id_list($chunk) . ")
            AND (p.ID IS NULL OR p.post_status <> 'auto-draft') GROUP BY tt.term_id",
            $taxonomy
        ), ARRAY_N);
        foreach ($rows as $row) {
            $counts[(int) $row[0]] = (int) $row[1];
        }
    }
    return $counts;
}

/** The character data (duplicate-key-data.json), read once, only for names beyond ASCII. */
function cms_admin_duplicate_key_data(): array
{
    static $data = null;
    return $data ??= json_decode((string) file_get_contents(__DIR__ . '/duplicate-key-data.json'), true);
}

/**
 * find-duplicate-terms' keys of names, exactly as duplicateKey() makes them: decomposed (NFKD),
 * marks dropped, lower case (a capital sigma by its neighbours, as JavaScript lowers it), only
 * letters and digits, a final plural s dropped from keys longer than 3 that do not end in "ss".
 * All names at once, one line each: strtr() and the regular expressions then run once over the
 * whole text (character by character in PHP, 25,000 accented names took 0.4 s; this ~40 ms).
 */
function cms_admin_duplicate_keys(array $names): array
{
    // A line break is neither a letter nor a digit: as a space it changes no key.
    $text = implode("\n", str_replace(["\r", "\n"], ' ', array_map('strval', $names)));
    if (!preg_match('//u', $text)) {
        // Bytes that are not UTF-8 are no letters (WordPress's JSON sends them as "?").
        $text = implode("\n", str_replace(["\r", "\n"], ' ', array_map(static fn ($name) => wp_check_invalid_utf8((string) $name, true), $names)));
    }
    if (!preg_match('/[^\x00-\x7F]/', $text)) {
        $text = strtolower($text);
    } else {
        $data = cms_admin_duplicate_key_data();
        $text = strtr($text, $data['map']);
        $text = (string) preg_replace_callback('/[\x{AC00}-\x{D7A3}]/u', static fn ($m) => cms_admin_hangul_jamo($m[0]), $text);
        if (str_contains($text, "\u{3A3}")) {
            $lines = explode("\n", $text);
            foreach ($lines as &$line) {
                if (str_contains($line, "\u{3A3}")) {
                    $line = cms_admin_lower_sigma($line, $data);
                }
            }
            unset($line);
            $text = implode("\n", $lines);
        }
        // Characters beyond ASCII that are not letters or digits by the toolkit's tables, dropped.
        preg_match_all('/[^\x00-\x7F]/u', $text, $found);
        $other = array_filter(array_unique($found[0]), static fn ($char) => !preg_match('/^[' . $data['ln'] . ']$/u', $char));
        $text = strtr($text, array_fill_keys($other, ''));
    }
    // ASCII capitals were lowered: a-z and 0-9 are ASCII's letters and digits (other bytes stay).
    $keys = explode("\n", (string) preg_replace('/[\x00-\x09\x0B-\x2F\x3A-\x60\x7B-\x7F]+/', '', $text));
    foreach ($keys as &$key) {
        if (str_ends_with($key, 's') && !str_ends_with($key, 'ss')) {
            // JavaScript's length: UTF-16 code units (a character beyond U+FFFF counts twice).
            $units = strlen($key) - preg_match_all('/[\x80-\xBF]/', $key) + preg_match_all('/[\xF0-\xF7]/', $key);
            $key = $units > 3 ? substr($key, 0, -1) : $key;
        }
    }
    unset($key);
    return $keys;
}

/** A Hangul syllable as its jamo (Unicode's arithmetic decomposition), or null. */
function cms_admin_hangul_jamo(string $char): ?string
{
    if (3 !== strlen($char)) {
        return null;
    }
    $cp = ((ord($char[0]) & 0x0F) << 12) | ((ord($char[1]) & 0x3F) << 6) | (ord($char[2]) & 0x3F);
    if ($cp < 0xAC00 || $cp > 0xD7A3) {
        return null;
    }
    $s = $cp - 0xAC00;
    $t = $s % 28;
    // Jamo are U+1100–U+11FF: three bytes of UTF-8 each (written out: mbstring may be missing).
    $utf8 = static fn (int $jamo) => "\xE1" . chr(0x80 | ($jamo >> 6 & 0x3F)) . chr(0x80 | ($jamo & 0x3F));
    return $utf8(0x1100 + intdiv($s, 588)) . $utf8(0x1161 + intdiv($s % 588, 28)) . ($t ? $utf8(0x11A7 + $t) : '');
}

/**
 * Σ lowered as JavaScript does (Unicode's Final_Sigma): ς after a cased letter and not before
 * one, case-ignorable characters (apostrophes, marks …) skipped on both sides; else σ.
 */
function cms_admin_lower_sigma(string $text, array $data): string
{
    $chars = preg_split('//u', $text, -1, PREG_SPLIT_NO_EMPTY) ?: [];
    $is = static fn (string $class, string $char) => 1 === preg_match('/^[' . $data[$class] . ']$/u', $char);
    $cased_at = static function (int $i, int $step) use ($chars, $is): bool {
        for (; isset($chars[$i]) && $is('ignorable', $chars[$i]); $i += $step);
        return isset($chars[$i]) && $is('cased', $chars[$i]);
    };
    foreach ($chars as $i => $char) {
        if ("\u{3A3}" === $char) {
            $chars[$i] = $cased_at($i - 1, -1) && !$cased_at($i + 1, 1) ? "\u{3C2}" : "\u{3C3}";
        }
    }
    return implode('', $chars);
}
