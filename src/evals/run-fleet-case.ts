import { ChatSession } from '../agent/runner.js';
import type { Fleet } from '../call/index.js';
import type { WordPressClient } from '../client/index.js';
import { createContext } from '../config.js';
import { restoreSnapshot, type SandboxOptions } from '../sandbox/index.js';
import { memoryJournal } from '../undo/journal.js';
import { caseApprover } from './approvals.js';
import type { EvalCase, StateCheck } from './case-schema.js';
import { checkCalls } from './checks-calls.js';
import { checkState, diffKind } from './checks-state.js';
import { applyFixture } from './fixture.js';
import type { ModelSource } from './models.js';
import { PlaceholderResolver } from './placeholders.js';
import { type CaseResult, emptyResult, runTurns } from './run-case.js';
import { collectSecrets, redactForReport } from './secrets.js';
import { SiteSnapshot } from './site-state.js';

/** One site of the eval's fleet target: its sandbox (for the seeded snapshot) and its own check client. */
export interface FleetEvalSite {
  name: string;
  groups: string[];
  sandbox: SandboxOptions;
  site: { url: string; username: string; appPassword: string };
  checkClient: WordPressClient;
}

/**
 * A `target: fleet` case (issue #38): every site restored to its seeded snapshot and given the
 * fixture, the agent on all of them at once (every tool takes `site`, a write on several asks
 * the case's approver once), then the checks: `state` on the site a check names or on every
 * site, `unchanged` on every site. Placeholders resolve on the first site; `{{fixture.<site>_<key>.id}}`
 * names another site's record.
 */
export async function runFleetCase(evalCase: EvalCase, sites: readonly FleetEvalSite[], models: ModelSource): Promise<CaseResult> {
  const started = performance.now();
  const secrets = collectSecrets(evalCase);
  const result = emptyResult(evalCase);
  let phase = 'restore';
  try {
    for (const s of sites) await restoreSnapshot(s.sandbox, 'seeded');
    phase = 'fixture';
    const records = new Map<string, Record<string, unknown>>();
    for (const [i, s] of sites.entries()) {
      for (const [key, record] of await applyFixture(s.checkClient, evalCase.fixture)) {
        if (i === 0) records.set(key, record);
        records.set(`${s.name}_${key}`, record);
      }
    }
    const first = sites[0] as FleetEvalSite;
    const resolver = new PlaceholderResolver(first.checkClient, records);
    // Each site's starting state, read once; the placeholders read the first site's (run-case.ts).
    const before = new Map(sites.map((s) => [s.name, new SiteSnapshot(s.checkClient)]));
    const start = before.get(first.name);
    const turns = await resolver.resolve(evalCase.turns.map(({ user, expect }) => ({ user, expect })), { deferEnd: true, site: start });
    const expect = await resolver.resolve(evalCase.expect, { deferEnd: true, site: start });
    for (const s of sites) for (const kind of expect.unchanged ?? []) await before.get(s.name)?.read(kind);

    phase = 'agent';
    const fleet: Fleet = {
      sites: sites.map((s) => {
        const context = createContext({ ...s.site, name: s.name }, { journal: memoryJournal() });
        for (const secret of context.secrets ?? []) secrets.add(secret);
        return { name: s.name, url: s.site.url, groups: s.groups, username: s.site.username, context };
      }),
    };
    const session = new ChatSession({
      model: models.model(),
      context: fleet,
      approver: caseApprover(evalCase.approvals, result.approvals),
      maxSteps: evalCase.max_steps,
    });
    await runTurns(session, evalCase, turns, resolver, models, result, secrets);

    phase = 'checks';
    const afterOf = new Map(sites.map((s) => [s.name, new SiteSnapshot(s.checkClient)]));
    const final = await resolver.resolve(expect, { site: afterOf.get(first.name) });
    result.failures.push(...checkCalls(final, result.toolCalls, result.answers.at(-1) ?? ''));
    for (const s of sites) {
      const after = afterOf.get(s.name) as SiteSnapshot;
      const mine = (final.state ?? []).filter((c: StateCheck) => !c.site || c.site === s.name).map(({ site: _s, ...c }: StateCheck) => c);
      const failures = [...(await checkState(mine as StateCheck[], after))];
      for (const kind of expect.unchanged ?? []) failures.push(...(await diffKind(kind, before.get(s.name) as SiteSnapshot, after)));
      result.failures.push(...failures.map((f) => `${s.name}: ${f}`));
    }
  } catch (err) {
    result.failures.push(`harness error during ${phase}: ${err instanceof Error ? err.message : String(err)}`);
  }
  result.passed = result.failures.length === 0;
  result.timings.totalMs = Math.round(performance.now() - started);
  return redactForReport(result, secrets);
}
