import { expect } from 'vitest';
import type { ToolOutcome } from '../../src/call/index.js';
import type { Fault } from '../helpers/fault-proxy.js';
import { type BulkAnswer, expandIds, perPost } from '../helpers/listing.js';
import { makeCategory, makePosts, readPosts, readTerm, STATUSES } from '../wordpress/taxonomy/fixtures.js';

/**
 * Checks of bulk reports against the site as WordPress has it, for faults.test.ts: every post
 * accounted for once, no claim the site contradicts, nothing lost. Problems are counted.
 */
export const tally = { postsChecked: 0, postsLost: 0, duplicateWrites: 0 };

export function expectClearError(outcome: ToolOutcome): { code: string; message: string } {
  if (outcome.ok) throw new Error(`expected an error, got ${JSON.stringify(outcome.result)}`);
  expect(outcome.error.code).toMatch(/\S/);
  expect(outcome.error.message).toMatch(/\S/);
  return outcome.error;
}

export interface AssignReport {
  updated: number[];
  unchanged: number[];
  failed: Array<{ post_id: number; error: { code: string; message: string } }>;
}

type MergeAnswer = Omit<MergeReport, 'posts_failed'> & {
  posts_failed: BulkAnswer['failures'];
  posts_failed_reasons_not_listed?: number;
};

/** A merge answer (failed posts by reason, as id ranges) with one entry per failed post. */
function mergeReport(answer: MergeAnswer): MergeReport {
  expect(answer.posts_failed_reasons_not_listed).toBeUndefined();
  const posts_failed = answer.posts_failed.flatMap((f) => expandIds(f.post_ids).map((post_id) => ({ post_id })));
  return { ...answer, posts_failed };
}

/** The bulk answer (counts, id ranges, failures by reason) as one entry per post. */
export function assignReport(outcome: ToolOutcome): AssignReport {
  if (!outcome.ok) throw new Error(`assign failed as a whole: ${JSON.stringify(outcome.error)}`);
  return perPost(outcome.result as BulkAnswer);
}

/**
 * Every post in exactly one of updated/unchanged/failed, none claimed that lacks the category.
 * A call that failed as a whole must have changed nothing. Returns the problems found.
 */
export async function checkAssign(
  outcome: ToolOutcome,
  postIds: number[],
  categoryId: number,
  before?: Map<number, number[]>,
): Promise<string[]> {
  const problems: string[] = [];
  const site = await readPosts(postIds);
  tally.postsChecked += postIds.length;
  if (!outcome.ok) {
    expectClearError(outcome);
    for (const id of postIds) {
      if (before && JSON.stringify(site.get(id)?.categories) !== JSON.stringify(before.get(id)))
        problems.push(`post ${id} changed by a call that reported failure as a whole`);
    }
  } else {
    const report = assignReport(outcome);
    const lists: Array<[string, number[]]> = [
      ['updated', report.updated],
      ['unchanged', report.unchanged],
      ['failed', report.failed.map((f) => f.post_id)],
    ];
    const seen = new Map<number, string>();
    for (const [list, ids] of lists) {
      for (const id of ids) {
        if (seen.has(id)) problems.push(`post ${id} in ${seen.get(id)} and ${list}`);
        seen.set(id, list);
      }
    }
    for (const id of postIds) if (!seen.has(id)) problems.push(`post ${id} missing from the report`);
    for (const id of [...report.updated, ...report.unchanged]) {
      if (!site.get(id)?.categories.includes(categoryId))
        problems.push(`post ${id} reported ${seen.get(id)} but lacks category ${categoryId}`);
    }
    for (const f of report.failed)
      if (!f.error.code || !f.error.message) problems.push(`post ${f.post_id} failed without a reason`);
  }
  tally.postsLost += problems.length;
  expect(problems).toEqual([]);
  return problems;
}

export const WRITE_FAULTS: Fault[] = [
  { kind: 'drop', when: 'before' },
  { kind: 'drop', when: 'after' },
  { kind: 'status', status: 500, when: 'before' },
  { kind: 'status', status: 503, when: 'after' },
  { kind: 'delay', ms: 150 },
];

export function pickFault(faults: Fault[]) {
  return (random: () => number) => faults[Math.floor(random() * faults.length)] as Fault;
}

export interface MergeReport {
  posts_moved: number;
  posts_failed: Array<{ post_id: number }>;

  sources_deleted: number[];
  sources_kept_reason?: string;
  sources_delete_failed?: Array<{ id: number }>;
}

export interface MergeFixture {
  target: number;
  sources: number[];
  posts: number[];
}

/** Three sources (one with a child), 70 posts across them, some in two sources: 3 batch chunks. */
export async function makeMergeFixture(): Promise<MergeFixture> {
  const target = await makeCategory('Merge target');
  const sources = [await makeCategory('Merge src'), await makeCategory('Merge src'), await makeCategory('Merge src')];
  const keep = await makeCategory('Merge keep');
  await makeCategory('Merge child', sources[0]?.id);
  const ids = sources.map((s) => s.id);
  const posts = await makePosts(
    Array.from({ length: 70 }, (_, i) => ({
      status: STATUSES[i % STATUSES.length],
      categories: [
        ids[i % 3] as number,
        ...(i % 4 === 0 ? [ids[(i + 1) % 3] as number] : []),
        ...(i % 5 === 0 ? [keep.id] : []),
      ],
    })),
  );
  return { target: target.id, sources: ids, posts };
}

/** The posts' categories now, and which posts hold a source (what a merge must account for). */
export async function snapshotMerge(m: MergeFixture) {
  const before = new Map([...(await readPosts(m.posts)).values()].map((p) => [p.id, p.categories]));
  const holding = m.posts.filter((id) => before.get(id)?.some((c) => m.sources.includes(c)));
  return { before, holding };
}

/**
 * Nothing lost: each post has the target or a source that still exists; every post that held
 * a source is counted moved or failed, and those counted moved really moved.
 */
export async function checkMerge(
  outcome: ToolOutcome,
  m: MergeFixture,
  at: Awaited<ReturnType<typeof snapshotMerge>>,
): Promise<MergeReport | undefined> {
  const problems: string[] = [];
  const site = await readPosts(m.posts);
  const exists = new Map(
    await Promise.all(m.sources.map(async (id) => [id, (await readTerm('categories', id)) !== undefined] as const)),
  );
  tally.postsChecked += m.posts.length;
  for (const id of m.posts) {
    const cats = site.get(id)?.categories ?? [];
    if (!cats.includes(m.target) && !cats.some((c) => exists.get(c)))
      problems.push(`post ${id} lost its categories: has ${cats}`);
  }
  let report: MergeReport | undefined;
  if (outcome.ok) {
    report = mergeReport(outcome.result as MergeAnswer);
    const failed = new Set(report.posts_failed.map((f) => f.post_id));
    if (report.posts_moved + failed.size !== at.holding.length)
      problems.push(`moved ${report.posts_moved} + failed ${failed.size} ≠ ${at.holding.length}`);
    for (const id of failed)
      if (!at.holding.includes(id)) problems.push(`post ${id} reported failed but held no source`);
    for (const id of at.holding) {
      const cats = site.get(id)?.categories ?? [];
      if (!failed.has(id) && (!cats.includes(m.target) || cats.some((c) => m.sources.includes(c))))
        problems.push(`post ${id} counted moved but has ${cats}`);
    }
    for (const id of report.sources_deleted)
      if (exists.get(id)) problems.push(`source ${id} reported deleted but exists`);
    if (report.sources_deleted.length && failed.size) problems.push('sources deleted although posts failed');
  } else {
    expectClearError(outcome);
    for (const id of m.posts)
      if (JSON.stringify(site.get(id)?.categories) !== JSON.stringify(at.before.get(id)))
        problems.push(`post ${id} changed by a merge that failed as a whole`);
  }
  tally.postsLost += problems.length;
  expect(problems).toEqual([]);
  return report;
}
