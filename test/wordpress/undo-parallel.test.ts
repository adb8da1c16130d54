import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type ChangeEntry, fileJournal, isUndone, memoryJournal } from '../../src/undo/journal.js';
import { taxonomyRef } from '../../src/undo/state.js';
import { undoChange } from '../../src/undo/undo.js';
import { TAG } from '../../src/tools/taxonomy/terms.js';
import { runCli } from '../helpers/cli.js';
import { callOkIn, testSite, unique, wp } from '../helpers/site.js';
import { makeCategory, makePosts, makeTag, readPosts } from './taxonomy/fixtures.js';

/**
 * Issue #34.4: parallel writers made undo half-apply. 20 `cms-admin invoke` processes at once,
 * each assigning its own category to overlapping posts, wrote 20 intact lines; `undo --last 20`
 * left 13 posts with a category one of them added, called them "changed since" and marked the
 * change undone. Each entry now keeps its call's own change per post (what it added, what it
 * removed), the undo reverses exactly that, and an undo that leaves anything is incomplete.
 */

const WRITERS = 20;
/** On the core path every call waits its turn for the site lock (60 s at most): fewer writers. */
const CORE_WRITERS = 8;
const POSTS = 12;

const categoriesOf = async (posts: number[]) => {
  const now = await readPosts(posts);
  return Object.fromEntries(posts.map((id) => [id, [...(now.get(id)?.categories ?? [])].sort((a, b) => a - b)]));
};

/** Writer i assigns its category to 6 of the 12 posts, a window that overlaps its neighbours'. */
const windowOf = (posts: number[], i: number) => Array.from({ length: 6 }, (_, k) => posts[(i + k) % posts.length]!);

async function setUp(writers = WRITERS) {
  const home = await makeCategory('Parallel home');
  const cats = [];
  for (let i = 0; i < writers; i++) cats.push(await makeCategory(`Parallel ${i}`));
  const posts = await makePosts(Array.from({ length: POSTS }, () => ({ categories: [home.id] })));
  return { cats, posts, before: await categoriesOf(posts) };
}

describe('undo after parallel writers', () => {
  it('20 cms-admin invoke processes at once, then undo --last 20: every post has exactly its categories from before', { timeout: 300_000 }, async () => {
    const { cats, posts, before } = await setUp();
    const journal = path.join(mkdtempSync(path.join(tmpdir(), 'undo-parallel-')), 'changes.jsonl');
    const env = { CMS_JOURNAL: journal };
    const runs = await Promise.all(
      cats.map((cat, i) =>
        runCli(
          ['invoke', JSON.stringify({ tool: 'assign-categories-to-posts', params: { post_ids: windowOf(posts, i), category_ids: [cat.id] } })],
          { env, timeoutMs: 240_000 },
        ),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual(Array(WRITERS).fill(0));
    const written = await categoriesOf(posts);
    for (const [i, cat] of cats.entries())
      for (const id of windowOf(posts, i)) expect(written[id], `post ${id} has category ${i}`).toContain(cat.id);
    expect((await fileJournal(journal).entries()).filter((e) => e.tool === 'assign-categories-to-posts')).toHaveLength(WRITERS);

    const undone = await runCli(['undo', '--last', String(WRITERS), '--yes', '--json'], { env, timeoutMs: 240_000 });
    expect(undone.stderr).toBe('');
    const reports = JSON.parse(undone.stdout) as Array<{ conflicts: unknown[]; incomplete?: true }>;
    expect(reports).toHaveLength(WRITERS);
    expect(reports.flatMap((r) => r.conflicts)).toEqual([]);
    expect(reports.filter((r) => r.incomplete)).toEqual([]);
    expect(undone.code).toBe(0);
    expect(await categoriesOf(posts)).toEqual(before);
  });

  it('8 calls at once on the core REST path (no plugin), each with its own journal writing one file, undone in a shuffled order: the state from before', { timeout: 300_000 }, async () => {
    const { cats, posts, before } = await setUp(CORE_WRITERS);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'undo-parallel-')), 'changes.jsonl');
    const contexts = cats.map(() => createContext(testSite(), { journal: fileJournal(file) }));
    for (const context of contexts) {
      const namespaces = context.client.namespaces.bind(context.client);
      context.client.namespaces = async () => (await namespaces()).filter((ns) => ns !== 'cms-admin/v1');
    }
    await Promise.all(
      cats.map((cat, i) =>
        callOkIn(contexts[i]!, 'assign-categories-to-posts', { post_ids: windowOf(posts, i), category_ids: [cat.id] }),
      ),
    );
    const journal = fileJournal(file);
    const entries = await journal.entries();
    expect(entries).toHaveLength(CORE_WRITERS);
    // Any order: every second one first, then the rest.
    const order = [...entries.filter((_, i) => i % 2), ...entries.filter((_, i) => !(i % 2))];
    for (const entry of order) {
      const report = await undoChange(contexts[0]!, journal, { change_id: entry.change_id });
      expect(report.conflicts, entry.summary).toEqual([]);
      expect(report.incomplete).toBeUndefined();
    }
    expect(await categoriesOf(posts)).toEqual(before);
  });

  it('an entry written before #34.4 (whole lists of terms) is still undone from its lists', async () => {
    const [a, b] = [await makeTag('Old entry a'), await makeTag('Old entry b')];
    const [post] = await makePosts([{ tags: [a.id] }]);
    await wp().post(`/wp/v2/posts/${post}`, { tags: [a.id, b.id] });
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal });
    const { username } = await context.client.connect();
    const taxonomy = taxonomyRef(TAG);
    const old: ChangeEntry = {
      change_id: 'c0ldentry',
      at: new Date().toISOString(),
      user: username,
      tool: 'assign-tags-to-posts',
      params: { post_ids: [post], tag_ids: [b.id] },
      summary: `added tag ${b.id} to 1 of 1 post(s)`,
      reversible: true,
      before: { taxonomy, posts: { [String(post)]: [a.id] } },
      after: { taxonomy, posts: { [String(post)]: [a.id, b.id].sort((x, y) => x - y) } },
    };
    await journal.append(old);
    const report = await undoChange(context, journal);
    expect(report).toMatchObject({ restored: [`post ${post}`], conflicts: [] });
    expect((await readPosts([post!])).get(post!)?.tags).toEqual([a.id]);
  });

  it('a call that changed nothing (a writer that lost the race: its tag was on none of the posts) is undone as nothing and counts as undone', async () => {
    const tag = await makeTag('Nothing to remove');
    const posts = await makePosts([{ tags: [] }, { tags: [] }]);
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal });
    await callOkIn(context, 'remove-terms-from-posts', { taxonomy: 'post_tag', post_ids: posts, term_ids: [tag.id] });
    const [entry] = await journal.entries();
    expect(entry?.after).toMatchObject({ post_changes: {} });
    const report = await undoChange(context, journal);
    expect(report).toMatchObject({ restored: [], conflicts: [], undo_change_id: expect.any(String) });
    expect(isUndone(await journal.entries(), entry!)).toBe(true);
    // Before, it stayed "not undone" and every later undo --last picked it again.
    await expect(undoChange(context, journal)).rejects.toMatchObject({ code: 'nothing_to_undo' });
  });

  it('an undo that leaves something is incomplete in the journal and in the CLI’s words; a rerun finishes it', { timeout: 120_000 }, async () => {
    const journal = path.join(mkdtempSync(path.join(tmpdir(), 'undo-incomplete-')), 'changes.jsonl');
    const env = { CMS_JOURNAL: journal };
    const [a, b, target] = [await makeCategory('Incomplete a'), await makeCategory('Incomplete b'), await makeCategory('Incomplete t')];
    const posts = await makePosts([{ categories: [a.id] }, { categories: [b.id] }]);
    const before = await categoriesOf(posts);
    const slugOfA = (await wp().get<{ slug: string }>(`/wp/v2/categories/${a.id}`)).slug;
    const merge = { tool: 'merge-categories', params: { source_ids: [a.id, b.id], target_id: target.id, delete_sources: true } };
    expect((await runCli(['invoke', JSON.stringify(merge)], { env })).code).toBe(0);
    // Someone takes the slug of source a meanwhile: a cannot be recreated, b can.
    const squatter = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Squatter'), slug: slugOfA });

    const first = await runCli(['undo', '--yes'], { env });
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/incomplete/);
    expect(first.stdout).toContain(`slug ${slugOfA} is taken`);
    const undoEntry = (await fileJournal(journal).entries()).at(-1)!;
    expect(undoEntry).toMatchObject({ undoes: expect.any(String), incomplete: true });
    expect((await categoriesOf(posts))[posts[0]!]).toEqual([target.id]);

    await wp().delete(`/wp/v2/categories/${squatter.id}`, { force: true });
    const rerun = await runCli(['undo', '--yes', '--json'], { env });
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.stdout)[0]).toMatchObject({ change_id: undoEntry.undoes, conflicts: [] });
    const now = await categoriesOf(posts);
    const recreated = await wp().get<Array<{ id: number }>>('/wp/v2/categories', { slug: slugOfA, hide_empty: false });
    const newA = recreated[0]!.id;
    expect(now[posts[0]!]).toEqual([newA]);
    expect(now[posts[1]!]?.length).toBe(1);
    expect(now[posts[1]!]).not.toContain(target.id);
    expect(before[posts[1]!]).toEqual([b.id]);
  });
});
