import { WordPressError, withAbortSignal } from '../client/index.js';
import { recordWrite } from '../audit.js';
import { redactSecrets, secretValues } from '../redact.js';
import { type AnyToolDefinition, DRY_RUN, isDryRun, type ToolContext } from '../tools/define-tool.js';
import { parseParams } from '../tools/params.js';
import { ToolError, type ToolErrorPayload } from '../tools/tool-error.js';
import { answerBudget, enforceBudget } from '../tools/answers/budget.js';
import { reviewCall } from './approval.js';
import { invalidParams } from './check.js';
import { type DecidedCall, isDecided } from './decide.js';
import { toErrorPayload } from '../tools/error-payload.js';
import { beginChange, type PendingChange } from '../undo/record.js';

export type ToolOutcome = { ok: true; result: unknown } | { ok: false; error: ToolErrorPayload };

/**
 * Runs one decided call (decide.ts: resolved, reviewed, approved when it had to be) with exactly
 * its params: the dry run, or the journal's intent, execute, the journal's outcome, the audit
 * log, the answer budget and redaction. Every error is data: user-fixable ones as they are, bugs
 * as `internal_error`. Nothing else runs a tool (a call that was not decided is a bug: thrown).
 */
export async function runTool(call: DecidedCall): Promise<ToolOutcome> {
  if (!isDecided(call)) throw new Error('runTool runs only a call decided by decideCall (src/call/decide.ts).');
  const { tool, context, params: rawParams } = call;
  const secrets = [...(context.secrets ?? []), ...secretValues(rawParams)];
  const parsed = parseParams(tool, rawParams);
  if (!parsed.success) {
    return { ok: false, error: invalidParams(tool, parsed.error) };
  }
  const dryRun = isDryRun(parsed.data);
  // `dry_run: false` is the same as not given: tools never see the param.
  const { [DRY_RUN]: _dryRun, ...params } = parsed.data as Record<string, unknown>;
  let outcome: ToolOutcome;
  let user: string | undefined;
  let detail: unknown;
  let change: PendingChange | undefined;
  let written: unknown;
  let lost = false;
  try {
    // Every request of this call (tool code, paging, batches) stops when the call is cancelled.
    const result = await withAbortSignal(context.signal, async () => {
      // A write asks who is signed in first (its journal and audit log name the account); a read
      // or a dry run has its first answer check the credentials instead: one request less (#61).
      // (A client made for one call, as a fleet's list-sites has, logs in nowhere: nothing to check.)
      if (!dryRun && !tool.annotations.readOnly) user = (await context.client.connect()).username;
      else context.client.checkWithFirstAnswer?.();
      if (dryRun) return enforceBudget(await previewCall(tool, context, params), answerBudget(context));
      // The change journal (src/undo/record.ts): the state the write replaces, read first.
      change = await beginChange(tool, context, params, secrets);
      const full = await tool.execute(context, params);
      written = full;
      if (tool.answer) detail = full;
      return enforceBudget(tool.answer ? tool.answer(full as never) : full, answerBudget(context));
    });
    outcome = redactSecrets({ ok: true, result }, secrets);
  } catch (err) {
    const error = toErrorPayload(err) ?? internalError(tool, err, secrets);
    outcome = redactSecrets({ ok: false, error }, secrets);
    lost = answerLost(err);
  }
  if (change) {
    const done = await change.finish(written, user, secrets, outcome.ok ? undefined : outcome.error.code, lost);
    if (done.journalFailed) outcome = withNote(outcome, 'journal_failed', done.journalFailed);
    // Done, but not undoable though the tool can undo (issue #47): the answer says so now.
    if (done.cannotUndo) outcome = withNote(outcome, 'cannot_undo', `done; cannot be undone: ${done.cannotUndo}`);
  }
  if (context.audit && !tool.annotations.readOnly && !dryRun) {
    const write = { user, site: context.site, run_id: context.runId, tool: tool.name, params, outcome, detail };
    const failed = await recordWrite(context.audit, write, secrets);
    if (failed) return withNote(outcome, 'audit_log_failed', failed);
  }
  return outcome;
}

/**
 * A dry run's answer: what the call would change (the tool's own preview, else its review's
 * summary), read from the site, and whether the call itself would need approval. Any error the
 * reading meets is the dry run's error: a call that cannot succeed answers that error, and a
 * site that cannot be read is not described as if it were.
 */
async function previewCall(tool: AnyToolDefinition, context: ToolContext, params: unknown): Promise<unknown> {
  const [review, preview] = await Promise.all([
    tool.review ? tool.review(context, params as never) : reviewCall(tool, context, params),
    tool.preview?.(context, params as never),
  ]);
  if (review.approval === 'fails') throw new Error('unreachable: a tool without review() has no failed review');
  const needs_approval = review.approval === 'required';
  return preview ? { dry_run: true, ...preview, needs_approval } : { dry_run: true, would: review.summary, needs_approval };
}

/**
 * A write the client stopped waiting for (it timed out, or was cancelled while under way), or
 * whose outcome the tool could not read back: the site may still be working on it and apply it
 * after this call ends (a slow PHP finishing a request nobody waits for), so a read-back that
 * finds nothing proves nothing. Its journal entry stays, `unknown`, for undo to reconcile from
 * the site (#47: the undo property's race under load). A 5xx or a refused connection is an
 * answer: what the site shows then is what it did.
 */
function answerLost(err: unknown): boolean {
  if (err instanceof ToolError) return err.code === 'outcome_unknown';
  if (!(err instanceof WordPressError) || !err.request || ['GET', 'HEAD'].includes(err.request.method)) return false;
  return ['ETIMEDOUT', 'ECONNABORTED', 'cancelled'].includes(err.code);
}

/** The outcome, saying that it is missing from the audit log or the journal (the write itself stands). */
function withNote(outcome: ToolOutcome, key: 'audit_log_failed' | 'journal_failed' | 'cannot_undo', message: string): ToolOutcome {
  if (!outcome.ok) return { ok: false, error: { ...outcome.error, [key]: message } };
  const { result } = outcome;
  const isRecord = result !== null && typeof result === 'object' && !Array.isArray(result);
  return { ok: true, result: isRecord ? { ...result, [key]: message } : { result, [key]: message } };
}

/**
 * A bug in our code, not a problem of the site or the input: its own code, so no adapter
 * dresses it up as a tool error the model should work around, and tests fail on it
 * (test/helpers/site.ts). The stack goes to stderr with CMS_DEBUG only, secrets masked.
 */
export function internalError(tool: AnyToolDefinition, err: unknown, secrets: readonly string[]): ToolErrorPayload {
  if (process.env.CMS_DEBUG) {
    process.stderr.write(
      `cms-admin: internal error in ${tool.name}: ${redactSecrets(String((err as Error)?.stack ?? err), secrets)}\n`,
    );
  }
  const reason = err instanceof Error ? `${err.name}: ${err.message.split('\n')[0]}` : String(err);
  return {
    code: 'internal_error',
    message: `${tool.name} failed because of a bug in cms-admin-toolkit, not the site or the request (${reason}). The site may be partly changed if the tool writes; check it before retrying.`,
    hint: 'Report it with the output of the same call run with CMS_DEBUG=1.',
  };
}
