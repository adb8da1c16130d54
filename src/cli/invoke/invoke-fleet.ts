import { ConfigError } from '../../config.js';
import { newRunId, runOnSites, type SiteOutcome } from '../../sites/run.js';
import { selectSites } from '../../sites/select.js';
import { readProfiles } from '../../sites/store.js';
import { summarizeValue } from '../../summary.js';
import { callTool, isNetworkWide, OPERATORS_OWN_CALL } from '../../call/index.js';
import { exitCodeFor, type InvokeOptions, readCall } from './invoke-call.js';
import { readStdin, wholeNumberFlag } from '../shared.js';
import type { ListFormat } from '../render/format.js';

type Profiles = ReturnType<typeof selectSites>;

/** "done; cannot be undone: …" when a site's write could not be made undoable (run-tool.ts). */
function cannotUndo(result: unknown): string | undefined {
  const r = result as { cannot_undo?: unknown; journal_failed?: unknown } | null;
  const note = r && typeof r === 'object' ? (r.cannot_undo ?? r.journal_failed) : undefined;
  return typeof note === 'string' ? note : undefined;
}

/** The profiles with one per network (its `NAME/main` when selected, else its first), and what each stands for. */
function oncePerNetwork(profiles: Profiles): { kept: Profiles; once: Map<string, { network: string; sites: string[] }> } {
  const byNetwork = new Map<string, Profiles>();
  for (const p of profiles) if (p.network) byNetwork.set(p.network, [...(byNetwork.get(p.network) ?? []), p]);
  const once = new Map<string, { network: string; sites: string[] }>();
  for (const [name, sites] of byNetwork) {
    const sent = sites.find((p) => p.name === `${name}/main`) ?? (sites[0] as Profiles[number]);
    once.set(sent.name, { network: name, sites: sites.map((p) => p.name) });
  }
  return { kept: profiles.filter((p) => !p.network || once.has(p.name)), once };
}

type FleetInvokeOptions = InvokeOptions & { sites: string; concurrency?: string; json?: boolean; listFormat?: ListFormat };

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
  // A call on the whole network (grant-super-admin, delete-user's network form, list-users with
  // network: true) is the same call from each of its sites: it is sent once a network, to its main
  // site when selected, and said so (four sites would otherwise grant, delete or list four times).
  if (network?.ok && isNetworkWide(network.tool, network.params)) {
    const { kept, once } = oncePerNetwork(profiles);
    for (const [sent, covered] of once) {
      process.stderr.write(`${call.tool.name} acts on the whole network ${covered.network}: sent once, to ${sent}, for its ${covered.sites.length} selected site(s)\n`);
    }
    profiles = kept;
  }
  const runId = newRunId();
  const width = Math.max(4, ...profiles.map((p) => p.name.length));
  process.stderr.write(`run ${runId}: ${call.tool.name} on ${profiles.length} site(s), ${concurrency} at once\n`);
  // A read's lists, in a terminal or with --format: one table (csv, json …) with a site column, once every site answered (#52.2).
  const asOneList = call.tool.annotations.readOnly && !options.json && (options.listFormat !== undefined || Boolean(process.stdout.isTTY));
  const held: SiteOutcome[] = [];
  if (!options.json && !asOneList) process.stdout.write(`${'site'.padEnd(width)}  outcome  result\n`);
  const print = (o: SiteOutcome) => {
    if (asOneList) held.push(o);
    else if (options.json) process.stdout.write(`${JSON.stringify({ ...o, run: runId })}\n`);
    else {
      const note = o.ok ? cannotUndo(o.result) : undefined;
      const line = o.ok ? `${summarizeValue(o.result).line}${note ? ` (${note})` : ''}` : `${o.error.code}: ${o.error.message}`;
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
    outcomes = await runOnSites(profiles, async (context, profile) => {
      const form = (profile.network ? network : single) as typeof call;
      // The operator's own call, resolved on this site (a login, an email or a slug where an id
      // goes: its own ids), then run as given (docs/safety.md).
      return callTool({ tool: form.tool, params: form.given }, context, {}, OPERATORS_OWN_CALL);
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
  if (asOneList && (await printOneList(held, width, options.listFormat)) === 'bad_fields') return 2;
  const ok = outcomes.filter((o) => o.ok).length;
  const failed = outcomes.filter((o) => !o.ok && !o.error.not_started);
  const stuck = outcomes.filter((o) => o.ok && cannotUndo(o.result));
  // A dry run wrote nothing: there is nothing to undo, so no undo hint (#52.8).
  const wrote = outcomes.some((o) => o.ok && !(o.result as { dry_run?: unknown } | null)?.dry_run);
  process.stderr.write(
    `run ${runId}: ${ok} ok, ${failed.length} failed${failed.length ? ` (${failed.map((o) => o.site).join(', ')})` : ''}` +
      `${stuck.length ? `, ${stuck.length} done but not undoable (${stuck.map((o) => o.site).join(', ')})` : ''}` +
      `${notStarted.length ? `, ${notStarted.length} not started (${notStarted.map((o) => o.site).join(', ')})` : ''}` +
      `${wrote && !call.tool.annotations.readOnly ? `; undo it on every site: cms-admin undo --run ${runId}` : ''}\n`,
  );
  if (stop.signal.aborted) return 130;
  return ok === outcomes.length ? 0 : 1;
}

/**
 * The held answers of a read on several sites: the lists as one (a `site` column first, in the
 * chosen format; table by default), then each site whose answer is not a list on a line of its
 * own, failures on stderr.
 */
async function printOneList(held: readonly SiteOutcome[], width: number, how: ListFormat | undefined): Promise<'ok' | 'bad_fields'> {
  const [{ formatItems }, { listItems }] = await Promise.all([import('../render/format.js'), import('../render/answer.js')]);
  const rows: Array<Record<string, unknown>> = [];
  let total = 0;
  const others: string[] = [];
  for (const o of held) {
    const items = o.ok ? listItems(o.result) : undefined;
    if (o.ok && items) {
      rows.push(...items.map((item) => ({ site: o.site, ...item })));
      total += (o.result as { total: number }).total;
    } else if (o.ok) others.push(`${o.site.padEnd(width)}  ok       ${summarizeValue(o.result).line}`);
    else process.stderr.write(`${o.site.padEnd(width)}  FAILED   ${o.error.code}: ${o.error.message}\n`);
  }
  const format = how ?? { format: 'table' as const };
  if (format.format === 'ids') {
    // Ids are per site: one line each, "site: 3 5 8".
    for (const o of held) if (o.ok && listItems(o.result)) process.stdout.write(`${o.site}: ${formatItems(listItems(o.result) ?? [], format)}\n`);
    for (const line of others) process.stdout.write(`${line}\n`);
    return 'ok';
  }
  const fields = format.fields && !format.fields.includes('site') ? ['site', ...format.fields] : format.fields;
  try {
    const text = formatItems(rows, { ...format, ...(fields ? { fields } : {}) }, total);
    if (text) process.stdout.write(`${text}\n`);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`cms-admin: ${err.message}\n`);
    return 'bad_fields';
  }
  for (const line of others) process.stdout.write(`${line}\n`);
  return 'ok';
}
