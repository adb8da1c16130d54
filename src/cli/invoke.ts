import type { Command } from 'commander';
import { ConfigError, createContext } from '../config.js';
import { resolveCliSiteConfig } from './site-config.js';
import { runTool, type ToolOutcome } from '../call/index.js';
import { exitCodeFor, type InvokeOptions, readCall } from './invoke-call.js';
import { cliJournal, JOURNAL_FLAG } from './journal-path.js';
import { ANSWER_BUDGET_FLAG, readStdin } from './shared.js';
import { isNetwork } from '../call/index.js';
import { terminalProgress } from './param-file.js';

export { exitCodeFor };

export function registerInvokeCommand(program: Command): void {
  program
    .command('invoke')
    .description('Run one tool from a JSON envelope {"tool": NAME, "params": {…}}: JSON result, or a table in a terminal')
    .argument('[envelope]', 'the envelope as JSON, or - to read it from stdin')
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
    .option('--sites <sites>', 'run on several site profiles: a,b | @group | all (see `cms-admin sites`)')
    .option('--concurrency <n>', 'with --sites: sites run at once', '8')
    .addHelpText(
      'after',
      `
Output: {"ok":true,"result":…} or {"ok":false,"error":{"code","message","hint"?,"details"?}} on a pipe
or file, or with --json. In a terminal: lists as tables with a "more:" line, writes as one line,
errors as message and hint.
Exit codes: 0 ok, 1 tool or WordPress error, 2 invalid JSON, envelope or params.
Site: --site NAME (or CMS_SITE), else CMS_URL, CMS_USERNAME, CMS_APP_PASSWORD; without them
the local sandbox.
With --sites the call runs on each site (--concurrency at once): a table per site, or JSON
Lines with --json; exit 0 only if every site succeeded. The run's id is printed on stderr:
\`cms-admin undo --run ID\` undoes it on every site. Ctrl-C starts no more sites and says which
ran and which did not. See docs/fleets.md.

Examples:
  cms-admin invoke '{"tool":"get-cms-categories"}'
  echo '{"tool":"create-tag","params":{"name":"News"}}' | cms-admin invoke -
  cms-admin invoke --dry-run '{"tool":"delete-tag","params":{"id":12}}'
  cms-admin invoke --file people.csv '{"tool":"import-users","params":{"dry_run":true}}'
  cms-admin invoke --sites @clients '{"tool":"create-category","params":{"name":"Press"}}'`,
    )
    .action(async (text: string | undefined, options: InvokeOptions & { pretty?: boolean; json?: boolean; sites?: string }) => {
      if (options.sites !== undefined) {
        const { runFleetInvoke } = await import('./invoke-fleet.js');
        process.exitCode = await runFleetInvoke(text, { ...options, sites: options.sites });
        return;
      }
      const outcome = await runInvoke(text, options);
      if (process.stdout.isTTY && !options.json && !options.pretty) {
        const { renderEnvelopeAnswer } = await import('./render/envelope.js');
        process.stdout.write(`${renderEnvelopeAnswer(text, outcome)}\n`);
      } else process.stdout.write(`${JSON.stringify(outcome, null, options.pretty ? 2 : undefined)}\n`);
      process.exitCode = exitCodeFor(outcome);
    });
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
    if (!call.ok) return (await isNetwork(context.client)) ? await runTool(ready.tool, context, ready.params) : call;
    // On a multisite network list-users and delete-user take their network forms (docs/multisite.md).
    if (call.tool.onNetwork && (await isNetwork(context.client))) {
      const networkCall = await call.onNetwork();
      if (!networkCall.ok) return networkCall;
      return await runTool(networkCall.tool, context, networkCall.params);
    }
    return await runTool(call.tool, context, call.params);
  } catch (err) {
    if (err instanceof ConfigError) return { ok: false, error: { code: err.code, message: err.message } };
    throw err;
  }
}
