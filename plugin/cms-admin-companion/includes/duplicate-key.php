<?php
/**
 * find-duplicate-terms' key in PHP (0.7.0, issue #61), for term-duplicates.php: the same key as
 * duplicateKey() in src/tools/taxonomy/duplicate-terms.ts, character for character, from the
 * character data scripts/duplicate-key-data.mjs writes from Node's Unicode tables
 * (duplicate-key-data.json), so the plugin needs no intl extension.
 */

if (!defined('ABSPATH')) {
    exit;
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
