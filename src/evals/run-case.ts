import { ChatSession } from '../agent/runner.js';
import type { WordPressClient } from '../client/index.js';
import { createContext } from '../config.js';
import { clearMailLog, readMailLog, restoreSnapshot, type SandboxOptions, siteReset } from '../sandbox/index.js';
import { type ApprovalLog, caseApprover } from './approvals.js';
import type { EvalCase } from './case-schema.js';
import { type CallRecord, checkCalls } from './checks-calls.js';
import { checkMail, checkState, diffKind } from './checks-state.js';
import { applyFixture } from './fixture.js';
import type { ModelSource } from './models.js';
import { PlaceholderResolver } from './placeholders.js';
import { collectSecrets, maskArgs, redactForReport, resultSecrets } from './secrets.js';
import { SiteSnapshot } from './site-state.js';
import { memoryJournal } from '../undo/journal.js';

export interface CaseResult {
  id: string;
  title: string;
  category: EvalCase['category'];
  passed: boolean;
  /** Each names the check that failed and what differed. */
  failures: string[];
  steps: number;
  toolCalls: Array<CallRecord & { turn: number }>;
  approvals: ApprovalLog[];
  tokens: { input: number; output: number; total: number };
  answers: string[];
  timings: { restoreMs: number; fixtureMs: number; agentMs: number; checkMs: number; totalMs: number };
}

export interface CaseEnvironment {
  sandbox: SandboxOptions;
  site: { url: string; username: string; appPassword: string };
  /** The eval's own client: fixtures and end-state reads, never the agent's. */
  checkClient: WordPressClient;
  models: ModelSource;
  /** The multisite eval sandbox (network cases): restored to its seeded network, the network tools offered. */
  network?: boolean;
}

/** Restores the seeded site, applies the fixture, runs the turns, then checks; never throws. */
export async function runCase(evalCase: EvalCase, env: CaseEnvironment): Promise<CaseResult> {
  const started = performance.now();
  const since = (t: number) => Math.round(performance.now() - t);
  const secrets = collectSecrets(evalCase);
  // The operator's copy of a reset link: kept out of the model's view and of the report.
  // A journal of the case's own, as the CLI's chat has one: "undo that" works (issue #24).
  const base = createContext(env.site, {
    journal: memoryJournal(),
    secretsTo: async ({ value }) => {
      secrets.add(value);
      secrets.add(new URL(value).searchParams.get('key') ?? value);
      return 'the operator';
    },
  });
  const context = env.network ? { ...base, network: true } : base;
  for (const secret of context.secrets ?? []) secrets.add(secret);
  const result = emptyResult(evalCase);
  let phase = 'restore';
  try {
    let t = performance.now();
    // A network's `installed` snapshot holds its seeded sites and users (seed-network.php).
    if (env.network) await siteReset(env.sandbox);
    else await restoreSnapshot(env.sandbox, 'seeded');
    await clearMailLog(env.sandbox);
    result.timings.restoreMs = since(t);

    phase = 'fixture';
    t = performance.now();
    const fixture = await applyFixture(env.checkClient, evalCase.fixture);
    const resolver = new PlaceholderResolver(env.checkClient, fixture);
    const creds = env.network ? env.site : undefined;
    // The starting state (after the fixture), read once: the placeholders in user turns and
    // expectations name it, and the `unchanged` kinds are compared with it at the end. Nothing
    // writes until the agent runs. `lookup-end:` placeholders are resolved after the run.
    const before = new SiteSnapshot(env.checkClient, creds);
    const turns = await resolver.resolve(
      evalCase.turns.map(({ user, expect }) => ({ user, expect })),
      { deferEnd: true, site: before },
    );
    const expect = await resolver.resolve(evalCase.expect, { deferEnd: true, site: before });
    for (const kind of expect.unchanged ?? []) await before.read(kind);
    result.timings.fixtureMs = since(t);

    phase = 'agent';
    t = performance.now();
    const session = new ChatSession({
      model: env.models.model(),
      context,
      approver: caseApprover(evalCase.approvals, result.approvals),
      maxSteps: evalCase.max_steps,
      ...(env.network ? { filter: { network: true } } : {}),
    });
    await runTurns(session, evalCase, turns, resolver, env.models, result, secrets);
    result.timings.agentMs = since(t);

    phase = 'checks';
    t = performance.now();
    // The end state, read once for the `lookup-end:` placeholders and the state checks.
    const after = new SiteSnapshot(env.checkClient, creds);
    const final = await resolver.resolve(expect, { site: after });
    result.failures.push(...checkCalls(final, result.toolCalls, result.answers.at(-1) ?? ''));
    result.failures.push(...(await checkState(final.state ?? [], after)));
    for (const kind of expect.unchanged ?? []) result.failures.push(...(await diffKind(kind, before, after)));
    if (expect.mail) result.failures.push(...checkMail(expect.mail, await readMailLog(env.sandbox)));
    result.timings.checkMs = since(t);
  } catch (err) {
    result.failures.push(`harness error during ${phase}: ${err instanceof Error ? err.message : String(err)}`);
  }
  result.passed = result.failures.length === 0;
  result.timings.totalMs = since(started);
  return redactForReport(result, secrets);
}


/** A case's result before it runs: not passed, nothing counted yet (run-case, run-fleet-case). */
export function emptyResult(evalCase: EvalCase): CaseResult {
  return {
    id: evalCase.id,
    title: evalCase.title,
    category: evalCase.category,
    passed: false,
    failures: [],
    steps: 0,
    toolCalls: [],
    approvals: [],
    tokens: { input: 0, output: 0, total: 0 },
    answers: [],
    timings: { restoreMs: 0, fixtureMs: 0, agentMs: 0, checkMs: 0, totalMs: 0 },
  };
}

/** Runs a case's turns in `session`, noting calls, tokens, answers and per-turn check failures in `result`. */
export async function runTurns(
  session: ChatSession,
  evalCase: EvalCase,
  turns: Array<{ user: string; expect?: EvalCase['turns'][number]['expect'] }>,
  resolver: PlaceholderResolver,
  models: ModelSource,
  result: CaseResult,
  secrets: Set<string>,
): Promise<void> {
  const env = { models };
  for (const [index, turn] of turns.entries()) {
    const where = turns.length > 1 ? `turn ${index + 1}: ` : '';
    env.models.beforeTurn(evalCase.turns[index]?.reference ?? [], resolver);
    const outcome = await session.turn(turn.user);
    const calls: CallRecord[] = outcome.toolCalls.map((call) => {
      collectSecrets(call.args, secrets);
      resultSecrets(call.result, secrets);
      const error = errorCode(call.result, call.ok);
      return { name: call.name, args: maskArgs(call.args), ok: error === undefined, ...(error && { error }) };
    });
    result.toolCalls.push(...calls.map((call) => ({ ...call, turn: index + 1 })));
    result.steps += outcome.steps;
    result.tokens.input += outcome.usage.input;
    result.tokens.output += outcome.usage.output;
    result.tokens.total += outcome.usage.total;
    result.answers.push(outcome.answer);
    if (outcome.stopped?.reason === 'step_limit') {
      result.failures.push(`${where}step budget exceeded (max_steps ${evalCase.max_steps})`);
    } else if (outcome.stopped) {
      result.failures.push(`${where}${outcome.stopped.reason}: ${outcome.stopped.message}`);
    }
    const unreplayed = env.models.afterTurn();
    if (unreplayed && !outcome.stopped) result.failures.push(`${where}${unreplayed}`);
    if (turn.expect) {
      result.failures.push(...checkCalls(await resolver.resolve(turn.expect), calls, outcome.answer, where));
    }
  }
}

/**
 * The error code of a failed call, else undefined. Tool errors come back as ordinary results
 * holding `{"error":{code…}}` (the runner marks only rejections and invalid calls as errors).
 */
function errorCode(result: string | undefined, ok: boolean | undefined): string | undefined {
  // No result: the turn stopped (step limit, model error) before the call ran.
  if (result === undefined) return 'not_executed';
  let parsed: { error?: { code?: string } } | undefined;
  try {
    parsed = JSON.parse(result ?? '');
  } catch {
    parsed = undefined;
  }
  const code = parsed && typeof parsed === 'object' && parsed.error ? (parsed.error.code ?? 'error') : undefined;
  return code ?? (ok === false ? 'error' : undefined);
}
