import { approveAll, type Approver, refuseAll, serializeApprover } from '../../agent/approvals.js';
import { createChatModel, MODEL_HELP, modelConfigFromEnv } from '../../agent/model.js';
import { DEFAULT_HISTORY_TOKENS } from '../../agent/history.js';
import { ChatSession, DEFAULT_MAX_STEPS } from '../../agent/runner.js';
import { redactUrl } from '../../client/errors.js';
import { createContext, numberFromEnv } from '../../config.js';
import { ensureSite } from '../ensure-site.js';
import { operatorHandOver } from './hand-over.js';
import { runOnce } from './chat-once.js';
import { runRepl } from '../shell/repl.js';
import { slashUndo } from '../undo/undo-command.js';
import { cliJournal } from '../journal-path.js';
import { abilityTools, hasAbilitiesApi, networkToolsFor } from '../../call/index.js';
import { abilityPatterns, contextOptions, type FilterOptions, filterFromOptions, wholeNumberFlag } from '../shared.js';
import { runToolShell } from '../shell/tool-shell.js';
import { runFleetChat } from './chat-fleet.js';
import { sessionSites } from '../sites/fleet-session.js';

/** The floor of --history-tokens and CMS_HISTORY_TOKENS (README's configuration table). */
const MIN_HISTORY_TOKENS = 1000;

export interface ChatOptions extends FilterOptions {
  once?: string;
  json?: boolean;
  yes?: boolean;
  maxSteps?: string;
  resetLinkFile?: string;
  historyTokens?: string;
  strict?: boolean;
  sites?: string;
  abilities?: string;
}

/** Loaded only by `cms-admin chat`: it pulls in langchain. */
export async function runChat(options: ChatOptions): Promise<number> {
  const filter = filterFromOptions(options);
  const maxSteps = wholeNumberFlag('--max-steps', options.maxSteps ?? String(DEFAULT_MAX_STEPS), 1);
  // The flag, else the variable, each refused by its own name (invalid_config, exit 2).
  const historyTokens =
    options.historyTokens !== undefined
      ? wholeNumberFlag('--history-tokens', options.historyTokens, MIN_HISTORY_TOKENS)
      : (numberFromEnv('CMS_HISTORY_TOKENS', MIN_HISTORY_TOKENS) ?? DEFAULT_HISTORY_TOKENS);
  const siteOptions = contextOptions(options);
  // Checked before the site is reached (or the sandbox started): a wrong setting stops here.
  const modelConfig = modelConfigFromEnv();
  const secretsTo = operatorHandOver(options.resetLinkFile);
  const fleet = options.sites ? sessionSites(options.sites, { journal: options.journal, context: { ...siteOptions, secretsTo } }) : undefined;
  const patterns = abilityPatterns(options.abilities);
  if (fleet) {
    const siteTools = patterns.length ? await abilityTools(fleet.sites.map((s) => s.context), patterns) : undefined;
    return runFleetChat(fleet, options, { modelConfig, maxSteps, historyTokens, filter, siteTools });
  }
  const site = await ensureSite((line) => process.stderr.write(`${line}\n`));
  const context = createContext(site, {
    ...siteOptions,
    journal: cliJournal(options.journal, site.url),
    secretsTo,
  });
  await context.client.connect();
  // A super admin on a multisite network gets its network tools (docs/multisite.md); a site
  // administrator there and a single site, the same list as ever.
  filter.network = await networkToolsFor(context.client);
  // A site before WordPress 6.9 has no abilities: the toolset is absent, enable-toolset says why.
  filter.abilitiesApi = await hasAbilitiesApi(context.client);
  const siteTools = patterns.length ? await abilityTools([context], patterns) : undefined;
  const interactive = Boolean(process.stdin.isTTY) && options.once === undefined;

  if (!modelConfig) {
    process.stderr.write(`${MODEL_HELP}\n`);
    if (options.once !== undefined) return 2;
    process.stderr.write('Opening the direct tool shell instead (type /help).\n');
    return runToolShell({ context, filter, yes: Boolean(options.yes) });
  }
  const baseApprover: Approver | undefined = options.yes ? approveAll : interactive ? undefined : refuseAll;
  const makeSession = (approver: Approver) =>
    new ChatSession({
      model: createChatModel(modelConfig),
      context,
      filter,
      maxSteps,
      history: { maxTokens: historyTokens },
      strict: Boolean(options.strict),
      approver: serializeApprover(approver),
      siteTools,
    });

  if (options.once !== undefined) return runOnce(makeSession(baseApprover ?? refuseAll), options.once, options.json);
  const undo = (approver: Approver, arg: string) => slashUndo(context, filter, approver, arg);
  return runRepl({ makeSession, approver: baseApprover, site: redactUrl(site.url), model: modelConfig.model, undo });
}
