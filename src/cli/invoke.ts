import type { Command } from 'commander';
import { ConfigError, createContext } from '../config.js';
import { resolveCliSiteConfig } from './site-config.js';
import { isUsageError, parseEnvelope, resolveCall } from '../call/envelope.js';
import { DRY_RUN, runTool, type ToolOutcome } from '../call/index.js';
import { cliJournal, JOURNAL_FLAG } from './journal-path.js';
import { ANSWER_BUDGET_FLAG, contextOptions, filterFromOptions, type FilterOptions, readStdin } from './shared.js';

/** Exit codes: 0 ok, 1 tool or WordPress error, 2 invalid JSON/envelope/params. */
export function exitCodeFor(outcome: ToolOutcome): number {
  if (outcome.ok) return 0;
  return isUsageError(outcome) ? 2 : 1;
}

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
    .option('--show-reset-link', 'print the link of reset-user-password delivery "link" in the result')
    .option(...ANSWER_BUDGET_FLAG)
    .option('--json', 'print the JSON result also in a terminal (it is what a pipe or file gets)')
    .option('--pretty', 'indent the JSON output (implies --json)')
    .addHelpText(
      'after',
      `
Output: {"ok":true,"result":…} or {"ok":false,"error":{"code","message","hint"?,"details"?}} on a pipe
or file, or with --json. In a terminal: lists as tables with a "more:" line, writes as one line,
errors as message and hint.
Exit codes: 0 ok, 1 tool or WordPress error, 2 invalid JSON, envelope or params.
Site: CMS_URL, CMS_USERNAME, CMS_APP_PASSWORD; without CMS_URL the local sandbox.

Examples:
  cms-admin invoke '{"tool":"get-cms-categories"}'
  echo '{"tool":"create-tag","params":{"name":"News"}}' | cms-admin invoke -
  cms-admin invoke --dry-run '{"tool":"delete-tag","params":{"id":12}}'`,
    )
    .action(async (text: string | undefined, options: InvokeOptions & { pretty?: boolean; json?: boolean }) => {
      const outcome = await runInvoke(text, options);
      if (process.stdout.isTTY && !options.json && !options.pretty) {
        const { renderEnvelopeAnswer } = await import('./render/envelope.js');
        process.stdout.write(`${renderEnvelopeAnswer(text, outcome)}\n`);
      } else process.stdout.write(`${JSON.stringify(outcome, null, options.pretty ? 2 : undefined)}\n`);
      process.exitCode = exitCodeFor(outcome);
    });
}

type InvokeOptions = FilterOptions & { showResetLink?: boolean; dryRun?: boolean };

async function runInvoke(text: string | undefined, options: InvokeOptions): Promise<ToolOutcome> {
  const source = text === undefined || text === '-' ? await readStdin() : text;
  const parsed = parseEnvelope(source);
  if (!parsed.ok) return parsed.outcome;
  let filter: ReturnType<typeof filterFromOptions>;
  let siteOptions: ReturnType<typeof contextOptions>;
  try {
    filter = filterFromOptions(options);
    siteOptions = contextOptions(options);
  } catch (err) {
    // A flag's wrong value (--allow with a misspelt name, --answer-budget 5): invalid_config, exit 2.
    if (err instanceof ConfigError) return { ok: false, error: { code: err.code, message: err.message } };
    throw err;
  }
  // Validate before touching configuration, so a bad call fails the same way with or without a site.
  const call = resolveCall(parsed.value, filter);
  if (!call.ok) return call;
  // The same as `"dry_run": true` in the params; a read-only tool writes nothing anyway.
  const params = options.dryRun && !call.tool.annotations.readOnly ? { ...call.params, [DRY_RUN]: true } : call.params;
  try {
    const site = await resolveCliSiteConfig();
    return await runTool(call.tool, createContext(site, {
      ...siteOptions,
      journal: cliJournal(options.journal, site.url),
      // The envelope's output is the only place a link can go: only on an explicit flag.
      secretsTo: options.showResetLink ? 'result' : undefined,
    }), params);
  } catch (err) {
    if (err instanceof ConfigError) return { ok: false, error: { code: err.code, message: err.message } };
    throw err;
  }
}
