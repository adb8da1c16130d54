import { withoutAbortSignal } from '../client/index.js';
import { maskSecretParams, redactSecrets } from '../redact.js';
import { summarizeValue } from '../summary.js';
import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import { hostname } from 'node:os';
import { ToolError } from '../tools/tool-error.js';
import { journalUnavailable, pendingHere, storeFailure } from './change-store.js';
import { type ChangeEntry, newChangeId, withUserId } from './journal.js';
import { siteKey } from './site-key.js';
import { postChangesOf } from './restore-post-changes.js';
import { put } from './types.js';
import { locateCreated, readState, type UndoScope, type UndoState } from './state.js';

/** What journalling a write left to say in its answer. */
export interface FinishedChange {
  /** The entry could not be written (also said on stderr): the change cannot be undone. */
  journalFailed?: string;
  /** The entry is written but the change cannot be undone, though its tool can undo: why. */
  cannotUndo?: string;
}

/** A write under way: its state before, read, and its intent committed; `finish` completes the entry. */
export interface PendingChange {
  /**
   * Completes the entry. A call that failed (`failure`: its error code) and changed nothing
   * leaves no entry; one whose outcome cannot be read back is left `unknown`.
   */
  finish(
    result: unknown,
    user: string | undefined,
    secrets: readonly string[],
    failure?: string,
    lost?: boolean,
  ): Promise<FinishedChange>;
}

/**
 * Before a write runs (not a dry run) on a context with a journal: reads the state the call
 * will replace (the tool's `undo.scope`), then — on a journal that can complete entries (the
 * change store) — commits the intent (`status: pending`, the site, the account, the state
 * before) BEFORE the first request that changes the site (issue #47). A journal that cannot be
 * written stops the write here (`journal_unavailable`). A read that fails does not stop the
 * call; its entry then says it cannot be undone, and why.
 */
export async function beginChange(
  tool: AnyToolDefinition,
  context: ToolContext,
  params: Record<string, unknown>,
  secrets: readonly string[] = [],
): Promise<PendingChange | undefined> {
  const { journal } = context;
  const undo = tool.undo;
  if (!journal || tool.annotations.readOnly || undo?.self) return undefined;
  let whyNot = undo ? undo.irreversible?.(params) : `${tool.name} cannot be undone`;
  // A read around the write failed: the tool can undo, this change cannot (its answer says so).
  let readFailed = false;
  let scope: UndoScope = {};
  let before: UndoState = {};
  if (undo && !whyNot) {
    try {
      scope = (await undo.scope?.(context, params)) ?? {};
      before = await readState(context.client, scope);
      // A create: what already goes by its name, so an interrupted one can find what it made.
      const locator = journal.update ? undo.locate?.(params) : undefined;
      if (locator)
        scope = {
          ...scope,
          locate: { ...locator, existed: await locateCreated(context.client, scope.taxonomy, locator) },
        };
    } catch (err) {
      if (context.signal?.aborted) throw err;
      whyNot = `the state before the change could not be read (${firstLine(err)})`;
      readFailed = true;
    }
  }
  const site = siteKey(context.client.siteUrl);
  const change_id = newChangeId();
  const at = new Date().toISOString();
  const account = await context.client.connect().catch(() => undefined);
  const base = {
    change_id,
    at,
    ...(account ? { user: account.username, user_id: account.id } : {}),
    tool: tool.name,
    params: maskSecretParams(params),
  };
  const allSecrets = [...(context.secrets ?? []), ...secrets];
  // The intent: committed before the write, so a process killed in between leaves a record.
  const intent: ChangeEntry | undefined = journal.update
    ? redactSecrets(
        {
          ...base,
          summary: `${tool.name}: under way (not completed)`,
          reversible: !whyNot,
          ...(whyNot ? { why_not: whyNot } : {}),
          before: whyNot ? {} : before,
          after: {},
          ...(context.runId ? { run_id: context.runId } : {}),
          site,
          status: 'pending' as const,
          pid: process.pid,
          host: hostname(),
          scope,
        },
        allSecrets,
      )
    : undefined;
  if (intent) {
    try {
      await journal.append(intent);
    } catch (err) {
      throw err instanceof ToolError ? err : journalUnavailable(journal.path ?? 'journal', firstLine(err));
    }
    pendingHere.add(change_id);
  }
  return {
    async finish(result, user, secrets, failure, lost) {
      try {
        return await complete(result, user, secrets, failure, lost);
      } finally {
        pendingHere.delete(change_id);
      }
    },
  };

  async function complete(
    result: unknown,
    user: string | undefined,
    secrets: readonly string[],
    failure?: string,
    lost = false,
  ): Promise<FinishedChange> {
    const drop = async (): Promise<FinishedChange> => {
      await journal?.discard?.(change_id).catch(() => undefined);
      return {};
    };
    // A failed call that could not be read before, or is not reversible, is not journalled.
    if (failure && (!undo || whyNot)) return drop();
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
        roles: scope.roles,
        userCaps: scope.userCaps,
        trashOf: scope.trashOf,
        also: scope.also,
      };
      if (full.taxonomy) before.taxonomy = full.taxonomy;
      try {
        // The call is done: reading its outcome is not cancelled with it.
        after = await withoutAbortSignal(() => readState(context.client, full));
      } catch (err) {
        // Failed, and what it did cannot be read: the intent says so (undo reads the site).
        if (failure)
          return intent
            ? markUnknown(`what it changed could not be read back (${firstLine(err)})`, failure, secrets)
            : {};
        whyNot = `the state after the change could not be read (${firstLine(err)})`;
        readFailed = true;
      }
    }
    // Posts' terms: the call's own change only (#34.4; other writers' changes are in the lists too).
    const delta =
      done?.post_changes ??
      (scope.postTerms && before.posts ? postChangesOf(before, after, scope.postTerms) : undefined);
    // A second taxonomy (migrate-terms' source): its posts' own change too.
    const alsoDelta =
      before.also?.posts && after.also && scope.also?.postTerms
        ? postChangesOf(before.also, after.also, scope.also.postTerms)
        : undefined;
    const changed =
      (delta
        ? changedCount({ ...before, posts: {} }, { ...after, posts: {} }) + Object.keys(delta).length
        : changedCount(before, after)) +
      (alsoDelta
        ? changedCount({ ...before.also, posts: {} }, { ...after.also, posts: {} }) + Object.keys(alsoDelta).length
        : 0);
    // A call that failed after writing part (a merge that moved posts, then stopped) is journalled.
    // One whose answer was lost may still land (a slow site finishing a request the client gave
    // up on): its intent stays, `unknown`, and undo reconciles it from the site.
    if (failure && !changed)
      return lost && intent
        ? markUnknown('its answer never came, and the site may still apply it', failure, secrets)
        : drop();
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
    if (alsoDelta && before.also && after.also) {
      delete before.also.posts;
      delete after.also.posts;
      after.also.post_changes = alsoDelta;
    }
    const entry: ChangeEntry = {
      ...base,
      ...(user && !base.user ? { user } : {}),
      summary,
      reversible: !whyNot,
      ...(whyNot ? { why_not: whyNot } : {}),
      before: whyNot ? {} : before,
      after: whyNot ? {} : after,
      ...(context.runId ? { run_id: context.runId } : {}),
      site,
    };
    const cannotUndo = readFailed ? whyNot : undefined;
    if (!intent) {
      const journalFailed = await appendEntry(context, entry, secrets);
      return { ...(journalFailed ? { journalFailed } : {}), ...(cannotUndo && !journalFailed ? { cannotUndo } : {}) };
    }
    try {
      await journal?.update?.(redactSecrets({ ...entry, status: 'done' as const }, [...allSecrets, ...secrets]));
      return cannotUndo ? { cannotUndo } : {};
    } catch (err) {
      // The write was made. Its intent stays (pending: undo reconciles it), unless the store went (#59.7).
      const { cause, gone } = storeFailure(err);
      // A failed call may still have changed part (its summary says so): never "was made" of it.
      const made = failure ? 'This write failed after changing part of what it asked' : 'This write was made';
      const why = gone
        ? `${made}, but its journal entry is gone (${cause}), so this change cannot be undone`
        : `${made}, but its journal entry could not be completed (${cause}): it stays in ${journal?.path ?? 'the journal'} marked incomplete, and undo reads the site to take it back`;
      process.stderr.write(`cms-admin: ${why}\n`);
      return { journalFailed: why };
    }
  }

  /** The call failed and its outcome is not known: the entry says it may have been applied. */
  async function markUnknown(why: string, failure: string, secrets: readonly string[]): Promise<FinishedChange> {
    if (!intent) return {};
    const entry: ChangeEntry = {
      ...intent,
      summary: `${tool.name} failed (${failure}): ${why}; it may have been applied`,
      status: 'unknown',
    };
    try {
      await journal?.update?.(redactSecrets(entry, [...allSecrets, ...secrets]));
    } catch {
      // stays pending: the same meaning
    }
    return {};
  }
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
    // Every entry names its site (issue #47).
    const sited = withId.site || !context.client ? withId : { ...withId, site: siteKey(context.client.siteUrl) };
    await context.journal.append(redactSecrets(sited, [...(context.secrets ?? []), ...secrets]));
    return undefined;
  } catch (err) {
    const why = `This change is not in the change journal, so it cannot be undone: ${storeFailure(err).cause}`;
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
  for (const key of ['terms', 'posts', 'users', 'trashed', 'roles', 'user_caps'] as const) {
    const a = (before[key] ?? {}) as Record<string, unknown>;
    const b = (after[key] ?? {}) as Record<string, unknown>;
    for (const id of new Set([...Object.keys(a), ...Object.keys(b)]))
      if (JSON.stringify(a[id] ?? null) !== JSON.stringify(b[id] ?? null)) n++;
  }
  return n;
}
