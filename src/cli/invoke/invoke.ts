import type { Command } from 'commander';
import { ConfigError, createContext } from '../../config.js';
import { resolveCliSiteConfig } from '../site-config.js';
import { callTool, OPERATORS_OWN_CALL, type ToolErrorPayload, type ToolOutcome } from '../../call/index.js';
import { envelopeFromWords } from '../shell/parse.js';
import { exitCodeFor, type InvokeOptions, readCall } from './invoke-call.js';
import { cliJournal, JOURNAL_FLAG } from '../journal-path.js';
import { ANSWER_BUDGET_FLAG, readStdin } from '../shared.js';
import { isNetwork } from '../../call/index.js';
import { terminalProgress } from './param-file.js';

export { exitCodeFor };

export function registerInvokeCommand(program: Command): void {
  program
    .command('invoke')
    .description('Run one tool: TOOL key=value … (as in the tool shell), or a JSON envelope {"tool": NAME, "params": {…}}: JSON result, or a table in a terminal')
    .argument('[call...]', 'TOOL key=value …, or the envelope as JSON, or - to read it from stdin')
    .option('--read-only', 'allow only read-only tools')
    .option('--allow <names>', 'comma-separated allowlist of tool names')
    .option('--audit-log <file>', 'append a JSON line per write to this file (default: env CMS_AUDIT_LOG)')
    .option(...JOURNAL_FLAG)
    .option('--dry-run', 'for a write tool: answer what it would change, read from the site; write nothing')
    .option('--file <[param=]path>', "a param's text from a file (import-users: the CSV)")
    .option('--show-reset-link', 'print the link of reset-user-password delivery "link" in the result')
    .option(...ANSWER_BUDGET_FLAG)
    .option('--json', 'print the JSON result also in a terminal (it is what a pipe or file gets); with --sites: JSON Lines')
    .option('--pretty', 'indent the JSON output (implies --json)')
    .option('--format <format>', 'a list answer as table, json (its items), csv, ids or count, as `wp … list --format`')
    .option('--fields <fields>', 'a list answer\'s fields, comma-separated, in this order (e.g. id,name,count)')
    .option('--sites <sites>', 'run on several site profiles: a,b | @group | all (see `cms-admin sites`)')
    .option('--concurrency <n>', 'with --sites: sites run at once', '8')
    .addHelpText(
      'after',
      `
Params: key=value; a list takes a,b,c or one value (or JSON: post_ids='[3,5]'); where an id of
a user or a term goes, a login, an email or a slug works too (a number is always an id).
Output: {"ok":true,"result":…} or {"ok":false,"error":{"code","message","hint"?,"details"?}} on a pipe
or file, or with --json. In a terminal: lists as tables with a "more:" line, writes as one line,
errors as message and hint.
Exit codes: 0 ok, 1 tool or WordPress error, 2 invalid JSON, envelope or params.
invoke is the operator's own command: it runs the call as given, without asking; where a call
needs approval the chat, the tool shell and MCP ask a person first (a dry run says which).
Site: --site NAME (or CMS_SITE), else CMS_URL, CMS_USERNAME, CMS_APP_PASSWORD; without them
the local sandbox.
List answers: --format table|json|csv|ids|count and --fields a,b (as \`wp … list\`): csv has a
header line, ids are space-separated, count is the list's total.
With --sites the call runs on each site (--concurrency at once): a line per site, or JSON
Lines with --json; a read's lists in a terminal or with --format are one table with a site
column first; exit 0 only if every site succeeded. The run's id is printed on stderr:
\`cms-admin undo --run ID\` undoes it on every site. Ctrl-C starts no more sites and says which
ran and which did not. See docs/fleets.md.

Examples:
  cms-admin invoke get-cms-tags limit=1
  cms-admin invoke update-tag id=12 name="Cloud Native"
  cms-admin invoke assign-terms-to-posts taxonomy=post_tag term_ids=javascript post_ids=181,182
  cms-admin invoke merge-terms taxonomy=post_tag source_ids=[python,rust] target_id=typescript
  cms-admin invoke set-users-role user_ids=aturing,dknuth to_role=author
  cms-admin invoke get-cms-tags --format csv --fields id,name,count
  cms-admin invoke '{"tool":"get-cms-categories"}'
  echo '{"tool":"create-tag","params":{"name":"News"}}' | cms-admin invoke -
  cms-admin invoke --dry-run '{"tool":"delete-tag","params":{"id":12}}'
  cms-admin invoke --file people.csv import-users dry_run=true
  cms-admin invoke --sites @clients '{"tool":"create-category","params":{"name":"Press"}}'`,
    )
    .action(async (words: string[], options: InvokeOptions & ListFlags & { pretty?: boolean; json?: boolean; sites?: string }) => {
      const read = envelopeText(words);
      let listFormat: Awaited<ReturnType<typeof formatFlags>>;
      try {
        listFormat = await formatFlags(options);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        process.stdout.write(`${JSON.stringify({ ok: false, error: { code: err.code, message: err.message } })}\n`);
        process.exitCode = 2;
        return;
      }
      if (typeof read === 'object') {
        process.stdout.write(`${JSON.stringify(read)}\n`);
        process.exitCode = 2;
        return;
      }
      const text = read;
      if (options.sites !== undefined) {
        const { runFleetInvoke } = await import('./invoke-fleet.js');
        process.exitCode = await runFleetInvoke(text, { ...options, sites: options.sites, listFormat });
        return;
      }
      const outcome = await runInvoke(text, options);
      if (listFormat && outcome.ok) {
        const code = await printFormatted(outcome.result, listFormat);
        if (code !== undefined) {
          process.exitCode = code;
          return;
        }
      }
      if (process.stdout.isTTY && !options.json && !options.pretty) {
        const { renderEnvelopeAnswer } = await import('../render/envelope.js');
        process.stdout.write(`${renderEnvelopeAnswer(text, outcome)}\n`);
      } else process.stdout.write(`${JSON.stringify(outcome, null, options.pretty ? 2 : undefined)}\n`);
      process.exitCode = exitCodeFor(outcome);
    });
}


type ListFlags = { format?: string; fields?: string };

/** --format / --fields, read only when given (the render modules load then). */
async function formatFlags(options: ListFlags) {
  if (options.format === undefined && options.fields === undefined) return undefined;
  return (await import('../render/format.js')).readFormatFlags(options);
}

/** A list answer in the chosen format (undefined: not a list, printed as without the flags); a wrong --fields: exit 2. */
async function printFormatted(result: unknown, how: NonNullable<Awaited<ReturnType<typeof formatFlags>>>): Promise<number | undefined> {
  const [{ formatItems }, { listItems }] = await Promise.all([import('../render/format.js'), import('../render/answer.js')]);
  const items = listItems(result);
  if (!items) {
    process.stderr.write('cms-admin: --format and --fields are for list answers; this one is printed as without them.\n');
    return undefined;
  }
  try {
    const text = formatItems(items, how, (result as { total: number }).total);
    if (text) process.stdout.write(`${text}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`cms-admin: ${err.message}\n`);
    return 2;
  }
}

/** The command's words → the envelope's text (undefined: stdin), or the usage error. */
function envelopeText(words: readonly string[]): string | undefined | { ok: false; error: ToolErrorPayload } {
  const [first] = words;
  if (first === undefined) return undefined;
  if (words.length === 1 && (first === '-' || first.trim().startsWith('{'))) return first;
  try {
    return JSON.stringify(envelopeFromWords(words));
  } catch (err) {
    return { ok: false, error: { code: 'invalid_params', message: (err as Error).message } };
  }
}

async function runInvoke(text: string | undefined, options: InvokeOptions): Promise<ToolOutcome> {
  const source = text === undefined || text === '-' ? await readStdin() : text;
  const call = await readCall(source, options);
  // Valid only in its network form (list-users `network: true`): run so on a network, else the error stands.
  const networkOnly = !call.ok && call.error.code === 'invalid_params' ? await readCall(source, options, true) : undefined;
  const ready = call.ok ? call : networkOnly?.ok ? networkOnly : undefined;
  if (!ready) return call as ToolOutcome;
  try {
    const site = await resolveCliSiteConfig();
    const context = createContext(site, {
      ...ready.siteOptions,
      journal: cliJournal(options.journal, site.url),
      // The envelope's output is the only place a link can go: only on an explicit flag.
      secretsTo: options.showResetLink ? 'result' : undefined,
    });
    context.progress = terminalProgress(ready.tool.name);
    // The operator's own call (docs/safety.md): resolved on the site (names to ids), then run as given.
    const run = (form: typeof ready) => callTool({ tool: form.tool, params: form.given }, context, {}, OPERATORS_OWN_CALL);
    if (!call.ok) return (await isNetwork(context.client)) ? await run(ready) : call;
    // On a multisite network list-users and delete-user take their network forms (docs/multisite.md).
    if (call.tool.onNetwork && (await isNetwork(context.client))) {
      const networkCall = await call.onNetwork();
      if (!networkCall.ok) return networkCall;
      return await run(networkCall);
    }
    return await run(call);
  } catch (err) {
    if (err instanceof ConfigError) return { ok: false, error: { code: err.code, message: err.message } };
    throw err;
  }
}
