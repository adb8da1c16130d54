import type { WordPressClient } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import { noneDone } from '../answers/bulk.js';
import { changePostTerms } from './change-post-terms.js';
import type { AssignReport } from './post-terms.js';
import { missingTermIds, type TermKind, termNotFound } from './terms.js';

/**
 * Adds terms to posts, keeping the terms each post has. Unknown term ids stop everything
 * before any write; unknown post ids are reported and the other posts proceed.
 */
export async function assignTerms(
  client: WordPressClient,
  kind: TermKind,
  postIds: readonly number[],
  termIds: readonly number[],
): Promise<AssignReport> {
  const terms = [...new Set(termIds)];
  const missing = await missingTermIds(client, kind, terms);
  if (missing.length) {
    const error = termNotFound(kind, missing);
    throw new ToolError(error.code, `${error.message} Nothing was changed.`, {
      hint: error.hint,
      details: error.details,
    });
  }
  const report = await changePostTerms(client, kind, postIds, { add: terms, remove: [] });
  if (report.failed.length && !report.updated.length && !report.unchanged.length) throw noneDone(report.failed);
  return report;
}
