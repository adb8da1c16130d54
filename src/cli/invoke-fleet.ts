import { ConfigError } from '../config.js';
import { newRunId, runOnSites, type SiteOutcome } from '../sites/run.js';
import { selectSites } from '../sites/select.js';
import { readProfiles } from '../sites/store.js';
import { summarizeValue } from '../summary.js';
import { runTool } from '../call/index.js';
import { exitCodeFor, type InvokeOptions, readCall } from './invoke-call.js';
import { readStdin, wholeNumberFlag } from './shared.js';

type FleetInvokeOptions = InvokeOptions & { sites: string; concurrency?: string; json?: boolean };

/**
 * `invoke --sites a,b|@group|all`: one call on each site, each site's outcome its own (issue
 * #38). Lines are printed as sites finish; exit 0 only if every site succeeded, 2 when the call
 * or the selection is wrong (before any site is reached).
 */
export async function runFleetInvoke(text: string | undefined, options: FleetInvokeOptions): Promise<number> {
  // Read once: stdin cannot be read twice, and a network's sites resolve the call again below.
  const source = text === undefined || text === '-' ? await readStdin() : text;
  const single = await readCall(source, options);
  let profiles: ReturnType<typeof selectSites>;
  let concurrency: number;
  try {
    profiles = selectSites(readProfiles(), options.sites);
    concurrency = wholeNumberFlag('--concurrency', options.concurrency ?? '8', 1);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    if (!single.ok) {
      process.stdout.write(`${JSON.stringify(single)}\n`);
      return exitCodeFor(single);
    }
    process.stderr.write(`cms-admin: ${err.message}\n`);
    return 2;
  }
  // A network's sites (profiles saved by `sites add` on a network) take the network forms of
  // list-users and delete-user (docs/multisite.md); the call must be valid for every form used.
  const network = profiles.some((p) => p.network) ? await readCall(source, options, true) : undefined;
  const forms = [...(profiles.some((p) => !p.network) ? [single] : []), ...(network ? [network] : [])];
  const invalid = forms.find((f) => !f.ok);
  if (invalid && !invalid.ok) {
    process.stdout.write(`${JSON.stringify(invalid)}\n`);
    return exitCodeFor(invalid);
  }
  const call = (forms[0] ?? single) as Extract<typeof single, { ok: true }>;
  const runId = newRunId();
  const width = Math.max(4, ...profiles.map((p) => p.name.length));
  process.stderr.write(`run ${runId}: ${call.tool.name} on ${profiles.length} site(s), ${concurrency} at once\n`);
  if (!options.json) process.stdout.write(`${'site'.padEnd(width)}  outcome  result\n`);
  const print = (o: SiteOutcome) => {
    if (options.json) process.stdout.write(`${JSON.stringify({ ...o, run: runId })}\n`);
    else {
      const line = o.ok ? summarizeValue(o.result).line : `${o.error.code}: ${o.error.message}`;
      process.stdout.write(`${o.site.padEnd(width)}  ${o.ok ? 'ok     ' : 'FAILED '}  ${line}\n`);
    }
  };
  // Ctrl-C: no new site starts, those under way finish and are reported; a second one quits now.
  const stop = new AbortController();
  const onInterrupt = () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
    process.stderr.write('\n(interrupted: starting no more sites; waiting for those under way — Ctrl-C again quits)\n');
  };
  process.on('SIGINT', onInterrupt);
  let outcomes: SiteOutcome[];
  try {
    outcomes = await runOnSites(profiles, (context, profile) => {
      const form = (profile.network ? network : single) as typeof call;
      return runTool(form.tool, context, form.params);
    }, {
      concurrency,
      signal: stop.signal,
      runId,
      journal: options.journal,
      context: { ...call.siteOptions, secretsTo: options.showResetLink ? 'result' : undefined },
      onDone: print,
    });
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  const notStarted = outcomes.filter((o) => !o.ok && o.error.not_started);
  for (const o of notStarted) print(o);
  const ok = outcomes.filter((o) => o.ok).length;
  const failed = outcomes.filter((o) => !o.ok && !o.error.not_started);
  process.stderr.write(
    `run ${runId}: ${ok} ok, ${failed.length} failed${failed.length ? ` (${failed.map((o) => o.site).join(', ')})` : ''}` +
      `${notStarted.length ? `, ${notStarted.length} not started (${notStarted.map((o) => o.site).join(', ')})` : ''}` +
      `${ok && !call.tool.annotations.readOnly ? `; undo it on every site: cms-admin undo --run ${runId}` : ''}\n`,
  );
  if (stop.signal.aborted) return 130;
  return ok === outcomes.length ? 0 : 1;
}
