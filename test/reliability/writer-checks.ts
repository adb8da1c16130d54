import { expect } from 'vitest';
import type { ToolOutcome } from '../../src/call/index.js';
import { type BulkAnswer, expandIds, perPost } from '../helpers/listing.js';
import { type PostState, readPosts, readTerm } from '../wordpress/taxonomy/fixtures.js';

/**
 * Checks for two calls that met on the same site (concurrent-writers.test.ts), all against the
 * site read back directly: no post lost a term no call removed, and every ok answer's counts
 * match the site.
 */
export type Site = Map<number, PostState>;
/** The taxonomy checked: the posts' field, which is also its terms' REST base. */
export type Field = 'categories' | 'tags';

/**
 * Every category a post had before and lacks now must have been taken by a call that meant to:
 * `removedBy(term, now)` says whether some call's change explains its absence.
 */
export function noTermLost(
  before: Site,
  after: Site,
  removedBy: (term: number, now: number[]) => boolean,
  field: Field = 'categories',
): void {
  const problems: string[] = [];
  for (const [id, post] of before) {
    const now = after.get(id)?.[field] ?? [];
    const lost = post[field].filter((t) => !now.includes(t) && !removedBy(t, now));
    if (lost.length) problems.push(`post ${id} lost ${lost.join(', ')} (had ${post[field]}, has ${now})`);
  }
  expect(problems).toEqual([]);
}

/** An ok merge answer: moved + failed = the posts it planned; the moved ones carry the target, no source; deleted sources are gone. */
export async function checkMergeAnswer(
  outcome: ToolOutcome,
  merge: { sources: number[]; target: number; posts: number[] },
  after: Site,
  field: Field = 'categories',
): Promise<void> {
  if (!outcome.ok) {
    expect(outcome.error.code).toMatch(/\S/);
    expect(outcome.error.message).toMatch(/\S/);
    return;
  }
  const answer = outcome.result as {
    posts_moved: number;
    posts_failed: BulkAnswer['failures'];
    sources_deleted: number[];
  };
  const failed = new Set(answer.posts_failed.flatMap((f) => expandIds(f.post_ids)));
  expect(answer.posts_moved + failed.size).toBe(merge.posts.length);
  for (const id of merge.posts.filter((p) => !failed.has(p))) {
    const now = after.get(id)?.[field] ?? [];
    expect(now, `post ${id} counted moved`).toContain(merge.target);
    expect(
      now.filter((t) => merge.sources.includes(t)),
      `post ${id} counted moved`,
    ).toEqual([]);
  }
  for (const id of answer.sources_deleted) expect(await readTerm(field, id), `source ${id}`).toBeUndefined();
}

/** An ok assign answer: every post accounted for once; those updated or unchanged carry the category. */
export function checkAssignAnswer(
  outcome: ToolOutcome,
  category: number,
  posts: number[],
  after: Site,
  field: Field = 'categories',
): void {
  if (!outcome.ok) {
    expect(outcome.error.code).toMatch(/\S/);
    return;
  }
  const report = perPost(outcome.result as BulkAnswer);
  expect(report.updated.length + report.unchanged.length + report.failed.length).toBe(posts.length);
  for (const id of [...report.updated, ...report.unchanged])
    expect(after.get(id)?.[field], `post ${id} reported done`).toContain(category);
}

/** An ok delete answer: the term is gone. */
export async function checkDeleteAnswer(outcome: ToolOutcome, id: number, field: Field = 'categories'): Promise<void> {
  if (outcome.ok) expect(await readTerm(field, id)).toBeUndefined();
}

export { readPosts };
