import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { undoChange } from '../../../src/undo/undo.js';
import { relations, siteState } from '../../reliability/bulk-terms-fixture.js';
import { callOkIn, testSite, unique } from '../../helpers/site.js';
import { wpPhp } from '../users/helpers.js';

/**
 * Issue #59, findings 3 and 13, as the issue writes them, the site read back from its database:
 * undo of a migration puts the source's children (and grandchildren) back under it; a term that
 * an object of another post type keeps is taken off every post that got the new term.
 */
const journaled = () => createContext(testSite(), { journal: memoryJournal() });

describe('migrate-terms (#59)', () => {
  it('finding 3: undo puts the source category’s children and grandchildren back under it', async () => {
    const prefix = unique('Mig tree').replace(/\s+/g, '-');
    const slug = prefix.toLowerCase();
    const s = JSON.parse(
      await wpPhp(`$p = ${JSON.stringify(prefix)};
        $ins = fn ($n, $parent = 0) => wp_insert_term("$p $n", 'category', ['parent' => $parent])['term_id'];
        $top = $ins('top'); $tips = $ins('tips', $top); $a = $ins('a', $tips); $b = $ins('b', $a); $c = $ins('c', $tips);
        $post = wp_insert_post(['post_title' => "$p post", 'post_status' => 'publish', 'post_category' => [$tips, $b]]);
        echo json_encode(compact('top', 'tips', 'a', 'b', 'c', 'post'));`),
    ) as Record<string, number>;
    const site = { prefix, posts: [s.post as number] };
    const before = await siteState(site);
    expect(before.category[`${slug}-b`]?.parent).toBe(`${slug}-a`);
    const context = journaled();
    await callOkIn(context, 'migrate-terms', { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [s.tips] });
    const migrated = (await siteState(site)).category;
    // WordPress moved Tips' children up to Tips' parent.
    expect(migrated[`${slug}-a`]?.parent).toBe(`${slug}-top`);
    expect(migrated[`${slug}-c`]?.parent).toBe(`${slug}-top`);
    const report = await undoChange(context, context.journal!);
    expect(report.conflicts).toEqual([]);
    expect(await siteState(site)).toEqual(before);
  });

  it('finding 13: "turn Tips into a tag" where a book keeps Tips: the posts that got the tag lose the category, only the book keeps it, named', async () => {
    const prefix = unique('Mig book').replace(/\s+/g, '-');
    const slug = prefix.toLowerCase();
    const s = JSON.parse(
      await wpPhp(`$p = ${JSON.stringify(prefix)};
        $tips = wp_insert_term("$p Tips", 'category')['term_id'];
        $posts = [];
        foreach (['publish', 'draft'] as $status) $posts[] = wp_insert_post(['post_title' => "$p $status", 'post_status' => $status, 'post_category' => [$tips, 1]]);
        $book = wp_insert_post(['post_title' => "$p book", 'post_status' => 'publish', 'post_type' => 'book']);
        wp_set_object_terms($book, [$tips], 'category');
        echo json_encode(compact('tips', 'posts', 'book'));`),
    ) as { tips: number; posts: number[]; book: number };
    const site = { prefix, posts: [...s.posts, s.book] };
    const before = await siteState(site);
    const context = journaled();
    const answer = await callOkIn(context, 'migrate-terms', { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [s.tips] });
    const now = await relations(site.posts);
    for (const id of s.posts) expect(now[id], `post ${id}`).toEqual({ category: ['uncategorized'], post_tag: [`${slug}-tips`] });
    expect(now[s.book]?.category).toEqual([`${slug}-tips`]);
    expect((await siteState(site)).category[`${slug}-tips`]?.objects).toEqual([s.book]);
    expect(answer.posts_not_moved).toEqual([{ id: s.book, type: 'book' }]);
    expect(answer.terms[0]).toMatchObject({ source_deleted: false, kept_reason: expect.stringContaining(String(s.book)) });
    expect((await undoChange(context, context.journal!)).conflicts).toEqual([]);
    expect(await siteState(site)).toEqual(before);
  });
});
