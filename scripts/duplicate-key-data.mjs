/**
 * Writes plugin/cms-admin-companion/includes/duplicate-key-data.json: what find-duplicate-terms'
 * key (`duplicateKey`, src/tools/taxonomy/find-duplicate-terms.ts: NFKD, marks dropped, lower
 * case, only letters and digits, a final plural s) does to each character, as data, so the
 * companion plugin groups names exactly as the toolkit does without PHP's intl extension
 * (Normalizer is often missing, as in the sandbox's PHP). From this Node's Unicode tables:
 *
 *   node scripts/duplicate-key-data.mjs
 *
 * - `map`: each character whose letters and digits change (decomposed, marks dropped, lowered),
 *   as what it becomes. Hangul syllables decompose by Unicode's formula in PHP instead (11,172),
 *   and Σ stays Σ: its lower case depends on its neighbours (final sigma), decided in PHP.
 * - `ln`, `cased`, `ignorable`: character classes (\p{L}\p{N}, Cased, Case_Ignorable) as PCRE
 *   ranges, so the plugin does not depend on PCRE's own, older, Unicode tables.
 * JSON, not a PHP array: PHP parses 170 kB of array literal in ~80 ms without opcache, json_decode
 * reads this in ~2 ms.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'plugin', 'cms-admin-companion', 'includes', 'duplicate-key-data.json');
const SIGMA = 0x03a3;
const isHangul = (cp) => cp >= 0xac00 && cp <= 0xd7a3;
const letters = (s) => s.replace(/[^\p{L}\p{N}]+/gu, '');
/** Decomposed and without marks, lowered, except Σ (lowered in PHP, in context). */
const mapped = (c) =>
  c
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .split('\u03A3')
    .map((part) => part.toLowerCase())
    .join('\u03A3');
const map = {};
const classes = { ln: /[\p{L}\p{N}]/u, cased: /\p{Cased}/u, ignorable: /\p{Case_Ignorable}/u };
const ranges = { ln: [], cased: [], ignorable: [] };
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const c = String.fromCodePoint(cp);
  for (const [name, re] of Object.entries(classes)) {
    if (!re.test(c)) continue;
    const list = ranges[name];
    const last = list[list.length - 1];
    if (last && last[1] === cp - 1) last[1] = cp;
    else list.push([cp, cp]);
  }
  if (cp === SIGMA || isHangul(cp)) continue;
  const to = mapped(c);
  // Unchanged once only letters and digits are kept: the character can stay as it is.
  if (letters(to.toLowerCase()) !== letters(c) || to.includes('\u03A3')) map[c] = to;
}
const pcre = (list) => list.map(([a, b]) => (a === b ? `\\x{${a.toString(16)}}` : `\\x{${a.toString(16)}}-\\x{${b.toString(16)}}`)).join('');
// One character a line: diffable when a Node with newer Unicode tables regenerates it.
const json = JSON.stringify({ unicode: process.versions.unicode, ln: pcre(ranges.ln), cased: pcre(ranges.cased), ignorable: pcre(ranges.ignorable), map }, null, 0)
  .replace(/,"(?=[^"]*":)/g, ',\n"');
writeFileSync(out, `${json}\n`);
console.log(`${out}: ${Object.keys(map).length} characters, ${ranges.ln.length} letter/digit ranges`);
