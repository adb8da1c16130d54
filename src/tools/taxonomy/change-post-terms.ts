/**
 * The bulk post-terms write path, for ANY taxonomy (categories, tags, product categories…).
 *
 * To call it for another taxonomy, pass its slug, REST base and terms route:
 *
 *   await withPostTermsLock(client, () =>
 *     changePostTerms(client, { taxonomy: 'product_cat', postsParam: 'product_cat',
 *       route: '/wp/v2/product_cat', noun: 'product category' }, postIds, { add: [12], remove: [7, 8] }));
 *
 * `add` and `remove` are changes, not a new list: each post keeps its other terms, also ones
 * another writer gives it meanwhile. One call may add some terms and remove others (a merge).
 * The answer is per post: updated, unchanged, or failed with a reason; an added term deleted
 * meanwhile fails the post by name and gives it back the removed terms. docs/concurrency.md
 * says what is guaranteed when two writers meet.
 */
import { chunk, inSteps, mapLimit, stepBudget, type WordPressClient, type WordPressError } from '../../client/index.js';
import { hasCompanion } from '../companion.js';
import { unknownOutcome, viaBatch } from './post-terms-batch.js';
import {
  type AssignReport,
  carries,
  failure,
  missingTerms,
  type PostTerms,
  type PostTermsTaxonomy,
  readPostTerms,
  type TermChange,
} from './post-terms.js';

export type { TermChange };

/** Posts per request to the companion plugin's bulk route (it accepts up to 500). */
const BULK_SIZE = 250;

/**
 * Applies `change` to every post in `postIds`, each post written at most once (again only
 * where another writer undid it), and reports each post as updated, unchanged or failed.
 * `known`: the posts' terms as the caller read them (a merge's plan), used to give removed
 * terms back if an added one vanishes.
 */
export async function changePostTerms(
  client: WordPressClient,
  kind: PostTermsTaxonomy,
  postIds: readonly number[],
  change: TermChange,
  known?: readonly PostTerms[],
): Promise<AssignReport> {
  const ids = [...new Set(postIds)];
  if (!ids.length) return { updated: [], unchanged: [], failed: [] };
  if (!(await hasCompanion(client, 'post-terms'))) return viaBatch(client, kind, ids, change);
  const before =
    known ?? (change.add.length && change.remove.length ? await readPostTerms(client, kind, ids) : undefined);
  const report = await viaCompanion(client, kind, ids, change);
  return checkAdded(client, kind, change, report, before);
}

type BulkReport = {
  updated: number[];
  unchanged: number[];
  failed: Array<{ post_id: number; code: string; message: string }>;
  /** 0.5.3: what each updated post gained and lost (an object; older plugins leave it out). */
  changes?: AssignReport['changes'];
  /** 0.7.0, with `budget_ms`: the posts the request did not reach, to send again. */
  remaining?: number[];
};

async function viaCompanion(
  client: WordPressClient,
  kind: PostTermsTaxonomy,
  ids: number[],
  change: TermChange,
): Promise<AssignReport> {
  // 0.7.0: each request in a time budget, the posts it did not reach sent again (#61).
  const budget = (await hasCompanion(client, 'post-terms/budget')) ? stepBudget(client) : undefined;
  const reports = await mapLimit(chunk(ids, BULK_SIZE), client.concurrency, async (postIds): Promise<BulkReport[]> => {
    const steps = await inSteps(postIds, budget ?? 0, async (todo, budget_ms) => {
      const answer = await client.post<BulkReport>('/cms-admin/v1/post-terms', {
        taxonomy: kind.taxonomy,
        post_ids: todo,
        add: change.add,
        remove: change.remove,
        ...(budget === undefined ? {} : { budget_ms }),
      });
      return { answer, left: answer.remaining ?? [] };
    });
    if (!steps.stopped) return steps.answers;
    return [...steps.answers, await readBack(client, kind, steps.stopped.items, change, steps.stopped.error)];
  }).then((lists) => lists.flat());
  const changes = Object.assign({}, ...reports.map((r) => (r.changes && !Array.isArray(r.changes) ? r.changes : {})));
  return {
    updated: reports.flatMap((r) => r.updated),
    unchanged: reports.flatMap((r) => r.unchanged),
    failed: reports.flatMap((r) => r.failed.map((f) => failure(f.post_id, f))),
    ...(Object.keys(changes).length ? { changes } : {}),
  };
}

/**
 * A bulk request that failed as a whole. Refused by WordPress (4xx): nothing was written. Its
 * answer lost (network, 5xx): it may have been applied, so the posts are read back — done is
 * reported done, not done failed, and a read that fails too says the outcome is unknown.
 */
async function readBack(
  client: WordPressClient,
  kind: PostTermsTaxonomy,
  postIds: number[],
  change: TermChange,
  err: WordPressError,
): Promise<BulkReport> {
  const failed = (code: string, message: string) => ({
    updated: [],
    unchanged: [],
    failed: postIds.map((post_id) => ({ post_id, code, message })),
  });
  if (err.status !== undefined && err.status < 500) return failed(err.code, err.message);
  let posts: Map<number, PostTerms>;
  try {
    posts = new Map((await readPostTerms(client, kind, postIds)).map((post) => [post.id, post]));
  } catch (readErr) {
    const unknown = unknownOutcome(kind, err, readErr);
    return failed(unknown.code, unknown.message);
  }
  const report: BulkReport = { updated: [], unchanged: [], failed: [] };
  // The client stopped waiting (#59.12): PHP may still be writing, so "not yet" is not "not done".
  const gaveUp = ['ETIMEDOUT', 'ECONNABORTED', 'cancelled'].includes(err.code);
  for (const id of postIds) {
    const post = posts.get(id);
    if (post && carries(post.terms, change)) report.updated.push(id);
    else if (gaveUp)
      report.failed.push({ post_id: id, code: 'outcome_unknown', message: `${err.message}; read back: not yet applied, but WordPress may still apply it. Check the post, then run the call again.` });
    else report.failed.push({ post_id: id, code: err.code, message: `${err.message} (read back: not applied)` });
  }
  return report;
}

/**
 * An added term deleted after the write: the posts do not carry it (WordPress removed it from
 * them), so they fail by name and get back the terms the change removed from them.
 */
async function checkAdded(
  client: WordPressClient,
  kind: PostTermsTaxonomy,
  change: TermChange,
  report: AssignReport,
  before: readonly PostTerms[] | undefined,
): Promise<AssignReport> {
  // The plugin checked each post right after writing it; if this later check cannot be made,
  // that word stands.
  const gone = await missingTerms(client, kind, change.add).catch(() => []);
  if (!gone.length) return report;
  const hit = [...report.updated, ...report.unchanged];
  const had = new Map((before ?? []).map((post) => [post.id, post.terms]));
  const byGiveBack = new Map<string, number[]>();
  for (const id of hit) {
    const back = (had.get(id) ?? []).filter((t) => change.remove.includes(t));
    if (back.length) byGiveBack.set(JSON.stringify(back), [...(byGiveBack.get(JSON.stringify(back)) ?? []), id]);
  }
  const notGivenBack = new Set<number>();
  for (const [key, postIds] of byGiveBack) {
    const back = await viaCompanion(client, kind, postIds, { add: JSON.parse(key) as number[], remove: [] });
    for (const f of back.failed) notGivenBack.add(f.post_id);
  }
  const message = (id: number) =>
    `${kind.noun} ${gone.join(', ')} was deleted meanwhile, so post ${id} does not have it${notGivenBack.has(id) ? '; the terms removed from it could not be given back' : ''}.`;
  return {
    updated: [],
    unchanged: [],
    failed: [
      ...report.failed,
      ...hit.map((id) => failure(id, { code: 'term_not_found', message: message(id), ...(notGivenBack.has(id) && { changed: true as const }) })),
    ],
  };
}
