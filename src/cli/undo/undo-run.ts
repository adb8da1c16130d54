import { UNDO_CHANGE } from '../../changes/undo-change.js';
import { createInterface } from 'node:readline/promises';
import { approvalRequest, approveAll, type Approver } from '../../call/index.js';
import { siteLine } from '../../call/index.js';
import { ConfigError } from '../../config.js';
import { runOnSites, type SiteOutcome } from '../../sites/run.js';
import { selectSites } from '../../sites/select.js';
import { readProfiles } from '../../sites/store.js';
import { planRunUndo } from '../../sites/undo-run.js';
import { describeUndo } from './undo-approve.js';
import type { ChangeEntry } from '../../undo/journal.js';
import { undoListed, type UndoReport } from '../../undo/undo.js';
import { terminalApprover } from '../render/terminal.js';

export interface UndoRunOptions {
  sites?: string;
  concurrency?: string;
  dryRun?: boolean;
  force?: boolean;
  yes?: boolean;
  json?: boolean;
  journal?: string;
}

/**
 * `undo --run ID`: the run's changes on every site (or --sites), read from each site's own
 * journal; ONE question lists what each site gets back (read from that site); then each site
 * is undone, its failure its own. Exit 0 only if every site's share was undone cleanly.
 */
export async function runUndoRun(runId: string, options: UndoRunOptions): Promise<number> {
  let profiles: ReturnType<typeof selectSites>;
  try {
    profiles = selectSites(readProfiles(), options.sites ?? 'all');
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`cms-admin: ${err.message}\n`);
    return 2;
  }
  const concurrency = Number(options.concurrency ?? 8) || 8;
  const plans = new Map<string, { chosen: ChangeEntry[]; lines: string[] }>();
  const planned = await runOnSites(
    profiles,
    async (context, profile) => {
      if (!context.journal) return { ok: false, error: { code: 'journal_off', message: 'The change journal is off: nothing can be undone.' } };
      const plan = await planRunUndo(context, context.journal, runId, { force: options.force });
      plans.set(profile.name, plan);
      return { ok: true, result: plan.lines };
    },
    { concurrency, journal: options.journal },
  );
  const failedToPlan = planned.filter((o) => !o.ok);
  const withChanges = profiles.filter((p) => plans.get(p.name)?.chosen.length);
  for (const o of failedToPlan) if (!o.ok) process.stderr.write(`${o.site}: ${o.error.code}: ${o.error.message}\n`);
  // --json: one line per selected site, whatever became of it (a site not reached says so: #47.9).
  const jsonLines = (done: readonly SiteOutcome[]) => {
    for (const p of profiles) {
      const line = done.find((o) => o.site === p.name) ?? planned.find((o) => o.site === p.name && !o.ok) ?? { site: p.name, ok: true, result: [] };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  };
  const finish = (names: string[]) => {
    if (names.length)
      process.stderr.write(`Not undone on ${names.join(', ')}: run \`cms-admin undo --run ${runId} --sites ${names.join(',')}\` when ${names.length > 1 ? 'they are' : 'it is'} reachable.\n`);
  };
  if (!withChanges.length) {
    if (options.json) jsonLines([]);
    process.stderr.write(`No change of run ${runId} made as you is left to undo on ${failedToPlan.length ? 'the sites that could be read' : 'any site'}.\n`);
    finish(failedToPlan.map((o) => o.site));
    return 1;
  }
  // A site's words stay on their own lines (#48): read from the site, they cannot pass for another site's.
  const question = withChanges.flatMap((p) => [`on ${p.name}:`, ...(plans.get(p.name)?.lines ?? []).map((l) => `  ${siteLine(l)}`)]);
  if (options.dryRun) {
    process.stdout.write(`${question.join('\n')}\n`);
    finish(failedToPlan.map((o) => o.site));
    return failedToPlan.length ? 1 : 0;
  }
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const rl = interactive && !options.yes ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
  const approver: Approver = options.yes
    ? approveAll
    : rl
      ? terminalApprover(rl, process.stdout, () => undefined)
      : async () => ({ approved: false, reason: 'An undo is a write and needs approval: run it in a terminal, or pass --yes.' });
  const sites = withChanges.map((p) => p.name);
  const decision = await approver(approvalRequest('undo', { run: runId, sites }, question.join('\n'))).finally(() => rl?.close());
  if (!decision.approved) {
    process.stderr.write(`Not undone: ${decision.reason}\n`);
    return 1;
  }
  const reports = new Map<string, UndoReport[]>();
  const done: SiteOutcome[] = await runOnSites(
    withChanges,
    async (context, profile) => {
      const list = await undoListed(context, context.journal as NonNullable<typeof context.journal>, plans.get(profile.name)?.chosen ?? [], {
        force: options.force,
        recordAs: UNDO_CHANGE,
      });
      reports.set(profile.name, list);
      return { ok: true, result: list };
    },
    { concurrency, journal: options.journal },
  );
  if (options.json) jsonLines(done);
  else
    for (const o of done) {
      if (!o.ok) process.stdout.write(`${o.site}: FAILED ${o.error.code}: ${o.error.message}\n`);
      else for (const r of reports.get(o.site) ?? []) process.stdout.write(`${o.site}: ${describeUndo(r)}\n`);
    }
  const left = (o: SiteOutcome) => !o.ok || (reports.get(o.site) ?? []).some((r) => r.conflicts.length || r.incomplete);
  finish([...failedToPlan.map((o) => o.site), ...done.filter(left).map((o) => o.site)]);
  const clean = done.every((o) => !left(o));
  return clean && !failedToPlan.length ? 0 : 1;
}
