import { describe, expect, it } from 'vitest';
import type { ToolContext } from '../../src/call/index.js';
import { type ChangeEntry, memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { wp } from '../helpers/site.js';
import { makeCategory, makePosts, readPosts } from '../wordpress/taxonomy/fixtures.js';
import { BULK, companion, proxied, proxy, run, useFaultProxy } from './fault-setup.js';
import { journaled } from './undo-engine.js';

useFaultProxy();

/**
 * Issue #47, finding 2: a merge read the posts to journal (its undo scope), then read the posts
 * to move again when it ran. Posts given a source in between (a second writer) were moved but
 * not journalled, and an undo left them in the target without their source. Here the second
 * writer lands exactly there: the merge's own plan read (the terms with `_fields=id,parent,meta,cms_meta_keys`,
 * after the scope's reads) is held until the writer has answered.
 */
const PLAN_READ = /^\/wp-json\/wp\/v2\/categories\?.*_fields=id%2Cparent%2Cmeta%2Ccms_meta_keys(&|$)/;

describe.each([
  ['bulk route', companion],
  ['core /batch/v1', proxied],
] as const)('merge-categories meets a writer between its scope read and its execute (%s)', (_path, contextOf) => {
  it('journals every post it moved, says so, and undo gives each its source back', async () => {
    const [source, target] = [await makeCategory('Merge47 S'), await makeCategory('Merge47 T')];
    const early = await makePosts(Array.from({ length: 9 }, () => ({ categories: [source.id] })));
    const late = await makePosts(Array.from({ length: 6 }, () => ({})));
    const journal = memoryJournal();
    const context: ToolContext = journaled(journal, contextOf());
    proxy.clear().inject({ method: 'GET', path: PLAN_READ, limit: 1, fault: { kind: 'hold' } });

    const merging = run(context, 'merge-categories', { source_ids: [source.id], target_id: target.id });
    await proxy.whenHeld();
    // The second writer: six more posts get the source, after the scope read, before the plan.
    const given = await wp().batch(
      late.map((id) => ({ path: `/wp/v2/posts/${id}?_fields=id`, body: { categories: [source.id] } })),
    );
    expect(given.every((r) => r.ok)).toBe(true);
    proxy.release();
    const merged = await merging;
    proxy.clear();

    expect(merged).toMatchObject({ ok: true, result: { posts_moved: 15 } });
    expect(JSON.stringify(merged)).not.toContain('post_changes');
    const all = [...early, ...late];
    const moved = await readPosts(all);
    for (const id of all) expect(moved.get(id)?.categories, `post ${id} after the merge`).toEqual([target.id]);

    const [entry] = (await journal.entries()) as ChangeEntry[];
    const report = await undoChange(context, journal, { change_id: entry?.change_id });
    expect(report.conflicts).toEqual([]);
    expect(report.incomplete).toBeFalsy();
    const back = await readPosts(all);
    for (const id of all) expect(back.get(id)?.categories, `post ${id} after the undo`).toEqual([source.id]);

    // The journal says what happened: every post moved, each with its own change.
    expect(entry?.summary).toContain('(15 post(s)');
    const changes = (entry?.after as { post_changes?: Record<string, unknown> } | undefined)?.post_changes ?? {};
    expect(Object.keys(changes).map(Number).sort((a, b) => a - b)).toEqual([...all].sort((a, b) => a - b));
    expect(changes[String(late[0])]).toEqual({ added: [target.id], removed: [source.id] });
  });
});

/**
 * And a writer landing between the merge's own read and its write (the plugin's bulk route,
 * which takes no site lock): a post the merge read with source A is given source B, and the
 * write takes both off. The plugin (0.5.3) says what each post really lost, so the journal keeps
 * both and an undo gives both back; from the merge's read alone B would be lost.
 */
describe('merge-categories meets a writer between its read and its write (bulk route)', () => {
  it('journals what each post really lost, and undo gives it all back', async () => {
    const [a, b, target] = [await makeCategory('Merge47 A'), await makeCategory('Merge47 B'), await makeCategory('Merge47 T')];
    const posts = await makePosts(Array.from({ length: 4 }, () => ({ categories: [a.id] })));
    const journal = memoryJournal();
    const context: ToolContext = journaled(journal, companion());
    proxy.clear().inject({ method: 'POST', path: BULK, limit: 1, fault: { kind: 'hold' } });

    const merging = run(context, 'merge-categories', { source_ids: [a.id, b.id], target_id: target.id });
    await proxy.whenHeld();
    const given = await wp().post(`/wp/v2/posts/${posts[0]}`, { categories: [a.id, b.id] }, { _fields: 'id' });
    expect(given).toBeTruthy();
    proxy.release();
    const merged = await merging;
    proxy.clear();
    expect(merged).toMatchObject({ ok: true, result: { posts_moved: 4 } });
    const moved = await readPosts(posts);
    for (const id of posts) expect(moved.get(id)?.categories, `post ${id} after the merge`).toEqual([target.id]);

    const [entry] = (await journal.entries()) as ChangeEntry[];
    const report = await undoChange(context, journal, { change_id: entry?.change_id });
    expect(report.conflicts).toEqual([]);
    const back = await readPosts(posts);
    expect(back.get(posts[0] as number)?.categories.sort((x, y) => x - y)).toEqual([a.id, b.id].sort((x, y) => x - y));
    for (const id of posts.slice(1)) expect(back.get(id)?.categories, `post ${id} after the undo`).toEqual([a.id]);
    const changes = (entry?.after as { post_changes?: Record<string, unknown> } | undefined)?.post_changes ?? {};
    expect(changes[String(posts[0])]).toEqual({ added: [target.id], removed: [a.id, b.id] });
  });
});

