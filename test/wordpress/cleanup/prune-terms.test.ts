import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { undoChange } from '../../../src/undo/undo.js';
import { budgetCount } from '../../helpers/budget.js';
import { call, callOk, callOkIn, testSite, wp } from '../../helpers/site.js';
import { restoreSeeded } from '../../evals/helpers.js';
import { dbSnapshot, type Mess, seedMess } from './mess.js';

/**
 * prune-terms (#51) on a seeded mess: tags used by nothing go, tags used only by drafts stay
 * (WordPress's own count says 0 for them), the answer and the database agree, and an undo gives
 * back every term with its posts.
 */
const TAGS = budgetCount('cleanupMess', 'prune-terms mess');
let mess: Mess;
beforeAll(async () => {
  // Of the tags, 40% on published posts, 30% on nothing, 30% only on drafts.
  mess = await seedMess({ used: (TAGS * 4) / 10, unused: (TAGS * 3) / 10, draft: (TAGS * 3) / 10 });
}, 120_000);
// 500 tags and their posts: the next file gets the seeded site.
afterAll(() => restoreSeeded(), 120_000);

const journalled = () => createContext(testSite(), { journal: memoryJournal() });
const restTags = (ids: number[]) =>
  wp().all<{ id: number; count: number }>('/wp/v2/tags', { include: ids, hide_empty: false, _fields: 'id,count', per_page: 100 });

describe('prune-terms', () => {
  it('the dry run lists the unused tags by name, the first 30 and how many more; nothing is deleted', async () => {
    const plan = await callOk('prune-terms', { taxonomy: 'post_tag', search: mess.prefix, dry_run: true });
    // The 150 unused and each group's near-duplicate no post uses; never the drafts' tags.
    expect(plan.would_delete).toBe(mess.unused.length + 2);
    expect(plan.terms).toHaveLength(30);
    expect(plan.more).toBe(mess.unused.length + 2 - 30);
    const names: string[] = plan.terms.map((t: { name: string }) => t.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect((await restTags(mess.unused)).length).toBe(mess.unused.length);
  });

  it('deletes the unused tags only; undo gives the site back as it was (database read)', async () => {
    const context = journalled();
    const before = await dbSnapshot(mess.prefix);
    const result = await callOkIn(context, 'prune-terms', { taxonomy: 'post_tag', search: mess.prefix });
    expect(result.deleted).toBe(mess.unused.length + 2);
    expect(await restTags(mess.unused)).toEqual([]);
    // Tags used only by drafts read count 0 in WordPress and stay.
    const drafts = await restTags(mess.draft);
    expect(drafts).toHaveLength(mess.draft.length);
    expect(drafts.every((t) => t.count === 0)).toBe(true);
    expect(await restTags(mess.used)).toHaveLength(mess.used.length);
    const after = await dbSnapshot(mess.prefix);
    expect(Object.keys(after)).toHaveLength(Object.keys(before).length - result.deleted);

    const report = await undoChange(context, context.journal!);
    expect(report.conflicts).toEqual([]);
    expect(await dbSnapshot(mess.prefix)).toEqual(before);
  }, 300_000);

  it('max_posts 1 takes the tags on one post of any status too; undo gives them their posts back', async () => {
    const context = journalled();
    const before = await dbSnapshot(mess.prefix);
    const result = await callOkIn(context, 'prune-terms', { taxonomy: 'post_tag', search: `${mess.prefix} draft 1`, max_posts: 1 });
    // "draft 1", "draft 10".."draft 19", "draft 100".. : each on one draft.
    expect(result.deleted).toBe(mess.draft.filter((_, i) => String(i).startsWith('1')).length);
    const after = await dbSnapshot(mess.prefix);
    expect(after[`${mess.prefix.toLowerCase()}-draft-1`]).toBeUndefined();
    const report = await undoChange(context, context.journal!);
    expect(report.conflicts).toEqual([]);
    expect(await dbSnapshot(mess.prefix)).toEqual(before);
  }, 300_000);

  it('never the default category, never a parent unless include_parents', async () => {
    const parent = await wp().post<{ id: number }>('/wp/v2/categories', { name: `${mess.prefix} parent` });
    const child = await wp().post<{ id: number }>('/wp/v2/categories', { name: `${mess.prefix} child`, parent: parent.id });
    const plan = await callOk('prune-terms', { taxonomy: 'category', search: mess.prefix, dry_run: true });
    expect(plan.terms.map((t: { id: number }) => t.id)).toEqual([child.id]);
    const settings = await wp().get<{ default_category: number }>('/wp/v2/settings', { _fields: 'default_category' });
    const all = await callOk('prune-terms', { taxonomy: 'category', max_posts: 1_000_000, dry_run: true, include_parents: true });
    expect(all.terms.map((t: { id: number }) => t.id)).not.toContain(settings.default_category);
    const both = await callOk('prune-terms', { taxonomy: 'category', search: mess.prefix, include_parents: true });
    expect(both.deleted).toBe(2);
  });

  it('a bad older_than is refused before anything is read', async () => {
    const outcome = await call('prune-terms', { taxonomy: 'post_tag', older_than: 'last year' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('invalid_date');
  });
});
