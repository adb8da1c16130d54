import { chunk, mapLimit, type WordPressClient } from '../../client/index.js';
import { hasCompanion } from '../companion.js';
import { type AssignReport, failure, type PostTerms, readPostTerms } from './post-terms.js';
import type { TermKind } from './terms.js';

/** The same change for many posts: these terms added, those removed, the others kept. */
export interface TermChange {
  add: readonly number[];
  remove: readonly number[];
}

/** Posts per request to the companion plugin's bulk route (it accepts up to 500). */
const BULK_SIZE = 250;

/**
 * Applies `change` to every post in `postIds`, each post written at most once, and reports
 * each post as updated, unchanged or failed.
 *
 * With the companion plugin, one request per 250 posts does it on the server. Otherwise each
 * post's whole term list is read (unless `known` has it) and written back through /batch/v1 —
 * WordPress's `categories`/`tags` fields replace the list, so read-modify-write is the only way.
 */
export async function changePostTerms(
  client: WordPressClient,
  kind: TermKind,
  postIds: readonly number[],
  change: TermChange,
  known?: readonly PostTerms[],
): Promise<AssignReport> {
  const ids = [...new Set(postIds)];
  if (!ids.length) return { updated: [], unchanged: [], failed: [] };
  if (await hasCompanion(client, 'post-terms')) return viaCompanion(client, kind, ids, change);
  return viaBatch(client, kind, ids, change, known ?? (await readPostTerms(client, kind, ids)));
}

type BulkReport = {
  updated: number[];
  unchanged: number[];
  failed: Array<{ post_id: number; code: string; message: string }>;
};

async function viaCompanion(
  client: WordPressClient,
  kind: TermKind,
  ids: number[],
  change: TermChange,
): Promise<AssignReport> {
  const reports = await mapLimit(chunk(ids, BULK_SIZE), client.concurrency, async (postIds) => {
    try {
      return await client.post<BulkReport>('/cms-admin/v1/post-terms', {
        taxonomy: kind.taxonomy,
        post_ids: postIds,
        add: change.add,
        remove: change.remove,
      });
    } catch (err) {
      // The request failed as a whole (timeout, 500): its posts are not confirmed; say so.
      const error = err as { code?: string; message?: string };
      return {
        updated: [],
        unchanged: [],
        failed: postIds.map((post_id) => ({
          post_id,
          code: error.code ?? 'request_failed',
          message: error.message ?? String(err),
        })),
      };
    }
  });
  return {
    updated: reports.flatMap((r) => r.updated),
    unchanged: reports.flatMap((r) => r.unchanged),
    failed: reports.flatMap((r) => r.failed.map((f) => failure(f.post_id, f))),
  };
}

async function viaBatch(
  client: WordPressClient,
  kind: TermKind,
  ids: number[],
  change: TermChange,
  known: readonly PostTerms[],
): Promise<AssignReport> {
  const current = new Map(known.map((post) => [post.id, post]));
  const remove = new Set(change.remove);
  const report: AssignReport = { updated: [], unchanged: [], failed: [] };
  const writes: PostTerms[] = [];
  for (const id of ids) {
    const post = current.get(id);
    if (!post) {
      report.failed.push(
        failure(id, {
          code: 'post_not_found',
          message: `No post with id ${id} of a type the ${kind.noun} is registered for.`,
        }),
      );
      continue;
    }
    if (missedSchedule(post)) {
      report.failed.push(
        failure(id, {
          code: 'scheduled_time_passed',
          message: `Post ${id} is scheduled for ${post.dateGmt} UTC, which has passed: WordPress publishes such a post on any update, so it was left unchanged. Publish or reschedule it first, or install the companion plugin (it sets terms without updating the post).`,
        }),
      );
      continue;
    }
    const terms = post.terms;
    const wanted = [...new Set([...terms.filter((t) => !remove.has(t)), ...change.add])];
    const same = wanted.length === terms.length && wanted.every((t) => terms.includes(t));
    if (same) report.unchanged.push(id);
    else writes.push({ ...post, terms: wanted });
  }
  // `_fields=id`: WordPress then skips building the full post for each response.
  const results = await client.batch(
    writes.map((post) => ({ path: `${post.route}/${post.id}?_fields=id`, body: { [kind.postsParam]: post.terms } })),
  );
  results.forEach((result, index) => {
    const id = (writes[index] as PostTerms).id;
    if (result.ok) report.updated.push(id);
    else report.failed.push(failure(id, result.error));
  });
  return report;
}

/**
 * A `future` post whose time has passed (missed schedule: WP-Cron did not run). wp_insert_post()
 * turns any update of it into `publish` (https://developer.wordpress.org/reference/functions/wp_insert_post/),
 * so writing its terms through /wp/v2 would publish it. Other statuses, dates, slugs, authors,
 * content and stickiness are kept by an update that sends only the terms.
 */
function missedSchedule(post: PostTerms): boolean {
  return post.status === 'future' && post.dateGmt !== undefined && Date.parse(`${post.dateGmt}Z`) - Date.now() < 60_000;
}
