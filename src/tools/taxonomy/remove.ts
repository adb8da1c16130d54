import type { WordPressClient } from '../../client/index.js';
import type { CallReview } from '../define-tool.js';
import { ToolError } from '../tool-error.js';
import { idRanges, noneDone } from '../answers/bulk.js';
import { changePostTerms } from './change-post-terms.js';
import { previewPostTerms } from './previews.js';
import { type AssignReport, readPostTerms } from './post-terms.js';
import { defaultCategoryId } from './term-writes.js';
import { missingTermIds, type TermKind, termNotFound } from './terms.js';

/** More posts than this losing terms in one call need a person's approval. */
export const FEW_POSTS = 3;

export interface RemoveReport extends AssignReport {
  /** Posts left with no category, which WordPress files under the default category. */
  filedUnderDefault?: { categoryId: number; postIds: number[] };
}

/**
 * Takes terms off posts, keeping their other terms. Unknown term ids stop everything before
 * any write. A post that loses its last category is filed under the default category, as
 * WordPress does whenever a post is saved without one (wp_set_post_categories()); the bulk
 * route removes without saving the post, so this adds it and says so.
 */
export async function removeTerms(
  client: WordPressClient,
  kind: TermKind,
  postIds: readonly number[],
  termIds: readonly number[],
): Promise<RemoveReport> {
  const terms = [...new Set(termIds)];
  const missing = await missingTermIds(client, kind, terms);
  if (missing.length) {
    const error = termNotFound(kind, missing);
    throw new ToolError(error.code, `${error.message} Nothing was changed.`, { hint: error.hint, details: error.details });
  }
  const isCategory = kind.taxonomy === 'category';
  // Categories: which posts hold only terms being removed, i.e. will be left with none.
  const before = isCategory ? await readPostTerms(client, kind, [...new Set(postIds)]) : [];
  const emptying = new Set(before.filter((p) => p.terms.length && p.terms.every((t) => terms.includes(t))).map((p) => p.id));
  const report: RemoveReport = await changePostTerms(client, kind, postIds, { add: [], remove: terms });
  if (report.failed.length && !report.updated.length && !report.unchanged.length) throw noneDone(report.failed);
  const emptied = report.updated.filter((id) => emptying.has(id));
  if (!emptied.length) return report;
  const defaultId = await defaultCategoryId(client);
  if (defaultId === undefined) return report;
  // The core API path saved the posts, so WordPress filed them already; the bulk route did not.
  // Read back: a post another writer gave a category meanwhile is not in the default one.
  const after = await readPostTerms(client, kind, emptied);
  const filed = after.filter((post) => post.terms.length === 1 && post.terms[0] === defaultId).map((post) => post.id);
  const bare = after.filter((post) => post.terms.length === 0).map((post) => post.id);
  if (bare.length) {
    const added = await changePostTerms(client, kind, bare, { add: [defaultId], remove: [] });
    filed.push(...added.updated, ...added.unchanged);
  }
  if (filed.length) report.filedUnderDefault = { categoryId: defaultId, postIds: filed };
  return report;
}

/** Removal from more than a few posts asks, naming the terms and the count, read from the site. */
export async function reviewRemove(
  client: WordPressClient,
  kind: TermKind,
  postIds: readonly number[],
  termIds: readonly number[],
): Promise<CallReview> {
  const preview = await previewPostTerms(client, kind, postIds, { add: [], remove: termIds });
  const count = Number(preview.posts_to_update);
  return { approval: count > FEW_POSTS ? 'required' : 'none', summary: String(preview.would) };
}

/** The answer's note on posts WordPress filed under the default category. */
export function defaultNote(report: RemoveReport) {
  const filed = report.filedUnderDefault;
  if (!filed) return {};
  return {
    filed_under_default_category: {
      category_id: filed.categoryId,
      post_ids: idRanges(filed.postIds),
      note: `${filed.postIds.length} post(s) lost their last category; WordPress files such posts under the default category (id ${filed.categoryId}).`,
    },
  };
}
