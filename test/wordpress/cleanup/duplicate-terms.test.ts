import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { duplicateGroups, duplicateKey, FALLBACK_TERMS } from '../../../src/tools/taxonomy/duplicate-terms.js';
import { budgetCount } from '../../helpers/budget.js';
import { callOkIn, restOnlyContext, testSite, unique, wp } from '../../helpers/site.js';
import { restoreSeeded } from '../../evals/helpers.js';
import { wpPhp } from '../users/helpers.js';

/**
 * find-duplicate-terms in one pass (#61): the companion plugin groups the names (0.7.0,
 * includes/term-duplicates.php) with the toolkit's own key, and pages are cut from that result.
 * A large tag taxonomy seeded with SQL, near-duplicates spread through it.
 */
type Group = { name: string; target_id: number; terms: Array<{ id: number; name: string; slug: string; parent: number; posts: number }> };
type Page = { total: number; items: Group[]; next_cursor: string | null; note?: string };

const TAGS = budgetCount('duplicateSite', 'duplicate terms: a large tag taxonomy');
const prefix = unique('Dup').replace(/\s+/g, '');

beforeAll(async () => {
  // Every 20th tag gets spellings of its own (case, punctuation, plural s, accents, an entity, Greek
  // capitals with a final sigma); the first spelling of each is on posts of every status.
  await wpPhp(`
    global $wpdb;
    $p = ${JSON.stringify(prefix)};
    $spell = [fn ($i) => "$p tag $i", fn ($i) => "$p-Tag $i" . 's', fn ($i) => "$p TÄG $i", fn ($i) => "$p Tag $i &amp;"];
    $rows = [];
    for ($i = 1; $i <= ${TAGS}; $i++) {
        $slug = strtolower("$p-tag-$i");
        $rows[] = ["$p Tag $i", $slug];
        // 1 to 4 spellings: tag 20 has one, tag 40 two …
        if (0 === $i % 20) foreach (array_slice($spell, 0, 1 + ($i / 20 - 1) % 4) as $n => $f) $rows[] = [$f($i), "$slug-v$n"];
        if (0 === $i % 500) { $rows[] = ["$p ΚΑΦΕΣ $i", strtolower("$p-kafes-$i")]; $rows[] = ["$p καφες $i", strtolower("$p-kafes-$i-v")]; }
    }
    $first = null;
    foreach (array_chunk($rows, 500) as $chunk) {
        $wpdb->query("INSERT INTO {$wpdb->terms} (name, slug, term_group) VALUES " . implode(',', array_map(fn ($r) => $wpdb->prepare('(%s, %s, 0)', $r[0], $r[1]), $chunk)));
        $id = (int) $wpdb->insert_id;
        $first ??= $id;
        $wpdb->query("INSERT INTO {$wpdb->term_taxonomy} (term_id, taxonomy, description, parent, count) VALUES " . implode(',', array_map(fn ($k) => $wpdb->prepare("(%d, 'post_tag', '', 0, 0)", $id + $k), array_keys($chunk))));
    }
    $posts = $wpdb->get_col("SELECT ID FROM {$wpdb->posts} WHERE post_type = 'post' AND post_status IN ('publish', 'draft', 'private') ORDER BY ID LIMIT 6");
    $variants = $wpdb->get_col($wpdb->prepare("SELECT tt.term_taxonomy_id FROM {$wpdb->term_taxonomy} tt JOIN {$wpdb->terms} t ON t.term_id = tt.term_id WHERE t.slug LIKE %s ORDER BY tt.term_id", $wpdb->esc_like(strtolower($p)) . '-tag-%-v0'));
    $rel = [];
    foreach ($variants as $k => $tt) foreach (array_slice($posts, 0, 1 + $k % count($posts)) as $post) $rel[] = $wpdb->prepare('(%d, %d, 0)', $post, $tt);
    foreach (array_chunk($rel, 500) as $chunk) $wpdb->query("INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id, term_order) VALUES " . implode(',', $chunk));
    wp_cache_flush();
  `);
}, 300_000);
afterAll(() => restoreSeeded(), 300_000);

/** Every page of find-duplicate-terms, following next_cursor. */
async function walk(context = createContext(testSite()), params: Record<string, unknown> = {}): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await callOkIn(context, 'find-duplicate-terms', { taxonomy: 'post_tag', ...params, ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

/** The groups as the tool made them before #61: every term with its objects from term-usage, grouped in JavaScript. */
async function oldGroups(): Promise<Group[]> {
  const usage = await wp().all<{ id: number; name: string; slug: string; parent: number; objects: number }>('/cms-admin/v1/term-usage', {
    taxonomy: 'post_tag',
    per_page: 500,
  });
  const { decodeEntities } = await import('../../../src/client/index.js');
  const terms = usage.map((t) => ({ id: t.id, name: decodeEntities(t.name), slug: t.slug, parent: t.parent, posts: t.objects }));
  return duplicateGroups(terms).map(({ key: _key, ...group }) => group);
}

const byTarget = (groups: Group[]) => [...groups].sort((a, b) => a.target_id - b.target_id);

describe('find-duplicate-terms with the companion plugin', () => {
  it('answers the first page of a large taxonomy in a few requests, with the groups of the old algorithm on every page once', async () => {
    const context = createContext(testSite());
    const first: Page = await callOkIn(context, 'find-duplicate-terms', { taxonomy: 'post_tag' });
    expect(context.client.stats.requests).toBeLessThanOrEqual(5);
    expect(first.next_cursor).not.toBeNull();

    const pages = await walk(createContext(testSite()), { limit: 40 });
    const listed = pages.flatMap((p) => p.items);
    expect(listed).toHaveLength(pages[0]!.total);
    expect(new Set(listed.map((g) => g.target_id)).size).toBe(listed.length);
    expect(byTarget(listed)).toEqual(byTarget(await oldGroups()));
    // The seeded spellings: each tag's group holds all of them, the one on posts first.
    const slug = `${prefix.toLowerCase()}-tag-80`;
    const group = listed.find((g) => g.terms.some((t) => t.slug === slug));
    expect(group?.terms.map((t) => t.slug).sort()).toEqual([slug, ...[0, 1, 2, 3].map((n) => `${slug}-v${n}`)].sort());
    expect(group?.terms[0]?.slug).toBe(`${slug}-v0`);
    expect(group?.terms[0]?.posts).toBeGreaterThan(0);
    expect(listed.some((g) => g.terms.some((t) => t.slug === `${prefix.toLowerCase()}-kafes-500`))).toBe(true);
  });

  it('cuts later pages from the first page’s reading: a group added meanwhile shifts nothing until a new first page', async () => {
    const context = createContext(testSite());
    const first: Page = await callOkIn(context, 'find-duplicate-terms', { taxonomy: 'post_tag', limit: 10 });
    // A new group that sorts before every other (digits first).
    const early = `0000 ${prefix}`;
    await wp().post('/wp/v2/tags', { name: early });
    await wp().post('/wp/v2/tags', { name: `${early}s` });
    const rest = await walk(context, { limit: 10, cursor: first.next_cursor });
    const all = [...first.items, ...rest.flatMap((p) => p.items)];
    expect(all).toHaveLength(first.total);
    expect(new Set(all.map((g) => g.target_id)).size).toBe(all.length);
    expect(all.some((g) => g.name.startsWith('0000'))).toBe(false);
    const again: Page = await callOkIn(context, 'find-duplicate-terms', { taxonomy: 'post_tag', limit: 10 });
    expect(again.total).toBe(first.total + 1);
    expect(again.items[0]?.name).toMatch(/^0000 /);
  });

  it('makes the key exactly as the toolkit does, for every character of the scripts people name tags in', async () => {
    const names: string[] = [];
    const blocks: Array<[number, number]> = [[0x20, 0x2ff], [0x370, 0x52f], [0x1e00, 0x1fff], [0x2100, 0x24ff], [0x3000, 0x30ff], [0xac00, 0xac40], [0xf900, 0xfaff], [0xfb00, 0xfb4f], [0xff00, 0xffef], [0x1d400, 0x1d7ff], [0x10400, 0x1044f]];
    for (const [a, b] of blocks)
      for (let cp = a; cp <= b; cp++) {
        const c = String.fromCodePoint(cp);
        names.push(c, `Ab${c}`, `X${c}s`, `${c}${c}${c}S`);
      }
    names.push('ΚΑΦΕΣ', 'ΣΑΣ ΒΑΣ', "Σ'Α", 'ΑΣ.', 'Α𝚺', 'ΑϹ', 'İstanbul', 'Straße', 'ＡＢＣｓ', 'ǅemal', 'ﬁre', 'a\nb');
    const dir = await mkdtemp(join(tmpdir(), 'dup-keys-'));
    await writeFile(join(dir, 'names.json'), JSON.stringify(names));
    const php = JSON.parse(await wpPhp(`echo json_encode(cms_admin_duplicate_keys(json_decode(file_get_contents(${JSON.stringify(join(dir, 'names.json'))}))));`)) as string[];
    const differ = names.map((name, i) => ({ name, js: duplicateKey(name), php: php[i] })).filter((k) => k.js !== k.php);
    expect(differ.slice(0, 10)).toEqual([]);
  });
});

describe('find-duplicate-terms without the companion plugin', () => {
  it('finds the same groups, reading at most a bounded number of terms a page, and says it is slower', async () => {
    const context = restOnlyContext();
    const first: Page = await callOkIn(context, 'find-duplicate-terms', { taxonomy: 'post_tag' });
    expect(first.note).toMatch(/^Slower without the companion plugin 0\.7\.0: every page re-reads the taxonomy's terms \(\d+ requests each\)\./);
    // The taxonomy's first FALLBACK_TERMS terms by id, 100 a request, whatever its size.
    expect(context.client.stats.requests).toBeLessThanOrEqual(FALLBACK_TERMS / 100 + 5);
    const tags = await wp().count('/wp/v2/tags', { hide_empty: false });
    const ours = (await walk(restOnlyContext(), { limit: 500 }))
      .flatMap((p) => p.items)
      .filter((g) => g.terms.some((t) => t.slug.startsWith(`${prefix.toLowerCase()}-`)));
    for (const group of ours) expect(new Set(group.terms.map((t) => duplicateKey(t.name))).size).toBe(1);
    if (tags > FALLBACK_TERMS) expect(first.note).toContain(`Only the first ${FALLBACK_TERMS} of its ${tags} terms were compared.`);
    else expect(ours).toHaveLength(TAGS / 20 + TAGS / 500);
  });
});
