import { withoutAbortSignal } from '../client/index.js';
import { maskSecretParams, redactSecrets } from '../redact.js';
import { summarizeValue } from '../summary.js';
import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import { type ChangeEntry, newChangeId, withUserId } from './journal.js';
import { postChangesOf } from './restore-post-changes.js';
import { put } from './types.js';
import { readState, type UndoScope, type UndoState } from './state.js';

/** A write under way: its state before, read; `finish` journals it once it succeeded. */
export interface PendingChange {
  /**
   * Appends the entry; returns why it could not be (also said on stderr), else undefined. A
   * call that failed (`failure`: its error code) is journalled only if it changed something.
   */
  finish(
    result: unknown,
    user: string | undefined,
    secrets: readonly string[],
    failure?: string,
  ): Promise<string | undefined>;
}

/**
 * Before a write runs (not a dry run) on a context with a journal: reads the state the call
 * will replace (the tool's `undo.scope`). A read that fails does not stop the call; its entry
 * then says it cannot be undone, and why.
 */
export async function beginChange(
  tool: AnyToolDefinition,
  context: ToolContext,
  params: Record<string, unknown>,
): Promise<PendingChange | undefined> {
  const { journal } = context;
  const undo = tool.undo;
  if (!journal || tool.annotations.readOnly || undo?.self) return undefined;
  let whyNot = undo ? undo.irreversible?.(params) : `${tool.name} cannot be undone`;
  let scope: UndoScope = {};
  let before: UndoState = {};
  if (undo && !whyNot) {
    try {
      scope = (await undo.scope?.(context, params)) ?? {};
      before = await readState(context.client, scope);
    } catch (err) {
      if (context.signal?.aborted) throw err;
      whyNot = `the state before the change could not be read (${firstLine(err)})`;
    }
  }
  return {
    async finish(result, user, secrets, failure) {
      // A failed call that could not be read before, or is not reversible, is not journalled.
      if (failure && (!undo || whyNot)) return undefined;
      let after: UndoState = {};
      // What the tool says its execute changed (#47.2), when it says: journalled as it is.
      let done: Pick<UndoState, 'post_changes'> | undefined;
      if (undo && !whyNot) {
        done = failure ? undefined : undo.done?.(result, params);
        const created = failure ? {} : (undo.created?.(result, params) ?? {});
        for (const id of created.terms ?? []) put(before, 'terms', id, null);
        for (const id of created.users ?? []) put(before, 'users', id, null);
        const full = {
          taxonomy: scope.taxonomy ?? created.taxonomy,
          terms: [...(scope.terms ?? []), ...(created.terms ?? [])],
          posts: done?.post_changes ? undefined : scope.posts,
          users: [...(scope.users ?? []), ...(created.users ?? [])],
          networkUsers: scope.networkUsers,
          trashOf: scope.trashOf,
        };
        if (full.taxonomy) before.taxonomy = full.taxonomy;
        try {
          // The call is done: reading its outcome is not cancelled with it.
          after = await withoutAbortSignal(() => readState(context.client, full));
        } catch (err) {
          if (failure) return undefined;
          whyNot = `the state after the change could not be read (${firstLine(err)})`;
        }
      }
      // Posts' terms: the call's own change only (#34.4; other writers' changes are in the lists too).
      const delta =
        done?.post_changes ?? (scope.postTerms && before.posts ? postChangesOf(before, after, scope.postTerms) : undefined);
      const changed = delta
        ? changedCount({ ...before, posts: {} }, { ...after, posts: {} }) + Object.keys(delta).length
        : changedCount(before, after);
      // A call that failed after writing part (a merge that moved posts, then stopped) is journalled.
      if (failure && !changed) return undefined;
      // Trashed: what the call moved to the Trash, i.e. what was outside it before and is not now.
      if (before.trashed) {
        const left = after.trashed ?? {};
        before.trashed = Object.fromEntries(Object.entries(before.trashed).filter(([id]) => !(id in left)));
        delete after.trashed;
      }
      const summary = failure
        ? `${tool.name} failed (${failure}) after changing part: ${changed} object(s)`
        : undo
          ? safeSummary(() => undo.summary(params, result, before), result)
          : summarizeValue(result).line;
      if (delta) {
        delete before.posts;
        delete after.posts;
        after.post_changes = delta;
      }
      const entry: ChangeEntry = {
        change_id: newChangeId(),
        at: new Date().toISOString(),
        ...(user ? { user } : {}),
        tool: tool.name,
        params: maskSecretParams(params),
        summary,
        reversible: !whyNot,
        ...(whyNot ? { why_not: whyNot } : {}),
        before: whyNot ? {} : before,
        after: whyNot ? {} : after,
        ...(context.runId ? { run_id: context.runId } : {}),
      };
      return appendEntry(context, entry, secrets);
    },
  };
}

/** Appends an entry, secrets redacted; returns why it failed (stderr says it too). */
export async function appendEntry(
  context: ToolContext,
  entry: ChangeEntry,
  secrets: readonly string[],
): Promise<string | undefined> {
  if (!context.journal) return undefined;
  try {
    // The account's id beside its login: a change belongs to the account (journal.ts: madeBy).
    const withId = withUserId(entry, await context.client?.connect().catch(() => undefined));
    await context.journal.append(redactSecrets(withId, [...(context.secrets ?? []), ...secrets]));
    return undefined;
  } catch (err) {
    const why = `This change is not in the change journal, so it cannot be undone: ${firstLine(err)}`;
    process.stderr.write(`cms-admin: ${why}\n`);
    return why;
  }
}

function safeSummary(make: () => string, result: unknown): string {
  try {
    return make();
  } catch {
    return summarizeValue(result).line;
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/** Objects whose state differs between two readings. */
function changedCount(before: UndoState, after: UndoState): number {
  let n = 0;
  for (const key of ['terms', 'posts', 'users', 'trashed'] as const) {
    const a = (before[key] ?? {}) as Record<string, unknown>;
    const b = (after[key] ?? {}) as Record<string, unknown>;
    for (const id of new Set([...Object.keys(a), ...Object.keys(b)]))
      if (JSON.stringify(a[id] ?? null) !== JSON.stringify(b[id] ?? null)) n++;
  }
  return n;
}
