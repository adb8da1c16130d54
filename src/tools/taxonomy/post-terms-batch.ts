import type { BatchItemResult, WordPressClient } from '../../client/index.js';
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
import { withSiteLock } from './site-lock.js';

/** Times a post is written again after a writer outside the toolkit's lock undid the change. */
const ROUNDS = 3;

/**
 * The core API's path: /wp/v2 replaces a post's whole term list, so each post is read, changed
 * and written back through /batch/v1 — under the site lock (site-lock.ts), so toolkit calls
 * take turns. Everything written is read back: done is done; a lost answer is resolved by the
 * read; a post another writer (outside the lock) overwrote gets the change again, up to ROUNDS
 * times; an added term deleted meanwhile fails the post by name and the removed terms go back.
 */
export function viaBatch(
  client: WordPressClient,
  kind: PostTermsTaxonomy,
  ids: number[],
  change: TermChange,
): Promise<AssignReport> {
  return withSiteLock(client, async () => {
    const report: AssignReport = { updated: [], unchanged: [], failed: [] };
    const before = new Map((await readPostTerms(client, kind, ids)).map((post) => [post.id, post]));
    let pending: PostTerms[] = [];
    for (const id of ids) {
      const post = before.get(id);
      if (!post) report.failed.push(notFound(kind, id));
      else if (missedSchedule(post)) report.failed.push(scheduled(post));
      else if (carries(post.terms, change)) report.unchanged.push(id);
      else pending.push(post);
    }
    const giveBack: PostTerms[] = [];
    for (let round = 1; pending.length; round++) {
      const results = await write(
        client,
        kind,
        pending.map((post) => ({ ...post, terms: applied(post.terms, change) })),
      );
      const sent = pending.map((post, i) => ({ post, result: results[i] as BatchItemResult }));
      // Refused by WordPress (4xx): not written. Anything else is settled by reading back.
      const check = sent.filter(({ post, result }) => {
        if (result.ok || result.status === undefined || result.status >= 500) return true;
        report.failed.push(failure(post.id, result.error));
        return false;
      });
      if (!check.length) break;
      let now: PostTerms[];
      let gone: number[];
      try {
        [now, gone] = await Promise.all([
          readPostTerms(
            client,
            kind,
            check.map(({ post }) => post.id),
          ),
          missingTerms(client, kind, change.add),
        ]);
      } catch (err) {
        for (const { post, result } of check) {
          if (result.ok) report.updated.push(post.id);
          else report.failed.push(failure(post.id, unknownOutcome(kind, result.error, err)));
        }
        break;
      }
      const fresh = new Map(now.map((post) => [post.id, post]));
      pending = [];
      for (const { post, result } of check) {
        const read = fresh.get(post.id);
        if (!read) report.failed.push(notFound(kind, post.id));
        else if (gone.length) {
          report.failed.push(termGone(kind, gone, post.id));
          const removed = (before.get(post.id)?.terms ?? []).filter((t) => change.remove.includes(t));
          giveBack.push({ ...read, terms: [...new Set([...read.terms, ...removed])].filter((t) => !gone.includes(t)) });
        } else if (carries(read.terms, change)) report.updated.push(post.id);
        else if (!result.ok)
          report.failed.push(
            failure(post.id, { code: result.error.code, message: `${result.error.message} (read back: not applied)` }),
          );
        else if (round < ROUNDS) pending.push(read);
        else report.failed.push(overwritten(kind, read));
      }
    }
    await restore(client, kind, giveBack, report);
    return report;
  });
}

function applied(terms: readonly number[], change: TermChange): number[] {
  return [...new Set([...terms.filter((t) => !change.remove.includes(t)), ...change.add])];
}

// `_fields=id`: WordPress then skips building the full post for each response.
function write(client: WordPressClient, kind: PostTermsTaxonomy, posts: PostTerms[]) {
  return client.batch(
    posts.map((post) => ({ path: `${post.route}/${post.id}?_fields=id`, body: { [kind.postsParam]: post.terms } })),
  );
}

/** Gives posts back the terms a change removed, when an added term vanished; says where that failed. */
async function restore(client: WordPressClient, kind: PostTermsTaxonomy, posts: PostTerms[], report: AssignReport) {
  if (!posts.length) return;
  const results = await write(client, kind, posts);
  results.forEach((result, i) => {
    if (result.ok) return;
    const entry = report.failed.find((f) => f.post_id === (posts[i] as PostTerms).id);
    if (entry) {
      entry.error.message += ` Giving it back its earlier terms failed too (${result.error.code}): it may now lack them.`;
      entry.error.changed = true;
    }
  });
}

/** The answer was lost and the read-back failed too: say so, and what to check. */
export function unknownOutcome(kind: PostTermsTaxonomy, lost: { message: string }, readErr: unknown) {
  const why = (readErr as { code?: string }).code ?? String(readErr);
  return {
    code: 'outcome_unknown',
    message: `${lost.message}; reading the posts back failed too (${why}), so whether their ${kind.noun} terms changed is unknown. Check them (a listing or a dry run) and run the call again: it only changes what is not done yet.`,
  };
}

function notFound(kind: PostTermsTaxonomy, id: number) {
  return failure(id, {
    code: 'post_not_found',
    message: `No post with id ${id} of a type the ${kind.noun} is registered for.`,
  });
}

function termGone(kind: PostTermsTaxonomy, gone: number[], id: number) {
  return failure(id, {
    code: 'term_not_found',
    message: `${kind.noun} ${gone.join(', ')} was deleted meanwhile, so post ${id} keeps its earlier terms.`,
  });
}

function overwritten(kind: PostTermsTaxonomy, post: PostTerms) {
  return failure(post.id, {
    code: 'changed_meanwhile',
    message: `Another writer (not this toolkit) kept replacing post ${post.id}'s ${kind.noun} terms; after ${ROUNDS} writes it has ${post.terms.join(', ') || 'none'}. Run the call again when the site is quiet.`,
  });
}

function scheduled(post: PostTerms) {
  return failure(post.id, {
    code: 'scheduled_time_passed',
    message: `Post ${post.id} is scheduled for ${post.dateGmt} UTC, which has passed: WordPress publishes such a post on any update, so it was left unchanged. Publish or reschedule it first, or install the companion plugin (it sets terms without updating the post).`,
  });
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
