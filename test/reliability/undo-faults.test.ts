import { describe, expect, it } from 'vitest';
import type { Fault, FaultRule } from '../helpers/fault-proxy.js';
import { callOkIn } from '../helpers/site.js';
import { makeCategory, makePosts, makeTag } from '../wordpress/taxonomy/fixtures.js';
import { BATCH, BULK, companion, proxied, proxy, useFaultProxy } from './fault-setup.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { attempt, journaled } from './undo-engine.js';
import { snapshotDiff, undoSnapshot } from './undo-snapshot.js';

/**
 * Issue #24: an undo cut short by a fault (the proxy drops a request mid-undo) says so, can be
 * run again, and the second run completes without restoring anything twice: every post ends
 * with exactly the terms it had, and no term is recreated twice (a duplicate would show in the
 * snapshot as an extra slug). Both post-term paths: the companion plugin's bulk route and
 * `/batch/v1`.
 */
useFaultProxy();

type Fixture = () => Promise<{ call: readonly [string, Record<string, unknown>] }>;

const TERM_CREATE = /^\/wp-json\/wp\/v2\/categories(\?|$)/;

/** Two sources (one with a child) and a target; 60 posts, some only in a source, some in two. */
async function mergeFixture(): ReturnType<Fixture> {
  const target = await makeCategory('Undo fault target');
  const sources = [await makeCategory('Undo fault src'), await makeCategory('Undo fault src')];
  await makeCategory('Undo fault child', sources[0]?.id);
  const other = await makeCategory('Undo fault other');
  const tag = await makeTag('Undo fault tag');
  const ids = sources.map((s) => s.id);
  await makePosts(
    Array.from({ length: 60 }, (_, i) => ({
      status: (['publish', 'draft', 'private'] as const)[i % 3],
      categories: [ids[i % 2] as number, ...(i % 4 === 0 ? [ids[(i + 1) % 2] as number] : []), ...(i % 5 === 0 ? [other.id] : [])],
      tags: [tag.id],
    })),
  );
  return { call: ['merge-categories', { source_ids: ids, target_id: target.id, delete_sources: true }] };
}

/** A category with children and 50 posts, most only in it (WordPress files them under the default). */
async function deleteFixture(): ReturnType<Fixture> {
  const parent = await makeCategory('Undo fault parent');
  const doomed = await makeCategory('Undo fault doomed', parent.id);
  await makeCategory('Undo fault kid', doomed.id);
  const other = await makeCategory('Undo fault other');
  await makePosts(Array.from({ length: 50 }, (_, i) => ({ categories: [doomed.id, ...(i % 5 === 0 ? [other.id] : [])] })));
  return { call: ['delete-category', { id: doomed.id, force: true }] };
}

const DROP_BEFORE: Fault = { kind: 'drop', when: 'before' };
const DROP_AFTER: Fault = { kind: 'drop', when: 'after' };

const CASES: Array<{ name: string; fixture: Fixture; plugin: boolean; rule: FaultRule; mustFail: boolean }> = [
  {
    name: 'merge, the second source not recreated (connection dropped), /batch/v1',
    fixture: mergeFixture,
    plugin: false,
    rule: { method: 'POST', path: TERM_CREATE, nth: 2, fault: DROP_BEFORE },
    mustFail: true,
  },
  {
    name: "merge, the first posts' write lost before WordPress got it, bulk route",
    fixture: mergeFixture,
    plugin: true,
    rule: { method: 'POST', path: BULK, nth: 1, fault: DROP_BEFORE },
    mustFail: true,
  },
  {
    name: "merge, a posts' chunk refused with 500, /batch/v1",
    fixture: mergeFixture,
    plugin: false,
    rule: { method: 'POST', path: BATCH, body: /"categories"/, nth: 2, fault: { kind: 'status', status: 500, when: 'before' } },
    mustFail: true,
  },
  {
    name: 'delete, the recreated category applied but its answer lost, bulk route',
    fixture: deleteFixture,
    plugin: true,
    rule: { method: 'POST', path: TERM_CREATE, nth: 1, fault: DROP_AFTER },
    mustFail: false,
  },
  {
    name: "delete, the posts' write applied but its answer lost, /batch/v1",
    fixture: deleteFixture,
    plugin: false,
    rule: { method: 'POST', path: BATCH, body: /"categories"/, nth: 1, fault: DROP_AFTER },
    mustFail: false,
  },
];

describe('undo after a fault', () => {
  it.each(CASES)('$name: says so; run again, it completes; nothing restored twice', async (c) => {
    const { call } = await c.fixture();
    const before = await undoSnapshot();
    const journal = memoryJournal();
    // Made through the address the undo uses: the journal's entries are its site's (#47).
    const context = () => journaled(journal, c.plugin ? companion() : proxied());
    await callOkIn(context(), call[0], { ...call[1] });
    const [change] = await journal.entries();
    expect(change?.reversible).toBe(true);
    const change_id = change?.change_id as string;

    const since = proxy.events.length;
    proxy.clear().inject(c.rule);
    const first = await attempt(undoChange(context(), journal, { change_id }));
    proxy.clear();
    expect(proxy.faults(since)).not.toEqual({});
    // Said as a failure, not as conflicts alone: an error, or a report marked incomplete.
    const failed = first.error !== undefined || (first.report as { incomplete?: boolean } | undefined)?.incomplete === true;
    const said = first.error
      ? `threw ${first.error.code ?? first.error.name}: ${first.error.message}`
      : `answered: ${first.report?.restored.length} restored, conflicts ${JSON.stringify(first.report?.conflicts.slice(0, 2))}`;
    console.log(`undo fault (${c.name}): the first run ${said.slice(0, 300)}`);
    if (c.mustFail) expect(failed, 'a fault the undo cannot recover from is not reported').toBe(true);
    if (first.error) expect(first.error.message).toMatch(/\S/);
    if (first.error) expect(first.error.name).not.toBe('TypeError');

    // Run again, without faults: it finishes what is left (or, if the first run completed,
    // says it is already undone), and the site is as before the change.
    const second = await attempt(undoChange(context(), journal, { change_id }));
    if (failed) expect(second.error, 'the second run must complete').toBeUndefined();
    else if (second.error) expect(second.error.code).toBe('already_undone');
    else expect(second.report?.restored).toEqual([]);
    expect(second.report?.conflicts ?? []).toEqual([]);
    expect((second.report as { incomplete?: boolean } | undefined)?.incomplete).toBeUndefined();
    // What the first run restored, the second leaves alone (items are named by their old ids).
    const again = (second.report?.restored ?? []).filter((item) => first.report?.restored.includes(item));
    expect(again).toEqual([]);
    expect(snapshotDiff(before, await undoSnapshot())).toEqual([]);

    // A third run has nothing to do: refused, no term recreated again, no post written again.
    const third = await attempt(undoChange(context(), journal, { change_id }));
    expect(third.error?.code).toBe('already_undone');
    expect(snapshotDiff(before, await undoSnapshot())).toEqual([]);
  });
});
