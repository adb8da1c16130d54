import type { Command } from 'commander';
import { DEFAULT_MAX_STEPS } from '../../agent/defaults.js';
import { ABILITIES_FLAG, ANSWER_BUDGET_FLAG, TOOLSETS_FLAG } from '../shared.js';
import { JOURNAL_FLAG } from '../journal-path.js';
import type { ChatOptions } from './chat-run.js';

export function registerChatCommand(program: Command): void {
  program
    .command('chat')
    .description('Chat with an agent that administers the site (starts the local sandbox when CMS_URL is unset)')
    .option('--once <message>', 'run one turn, print the final answer and exit')
    .option('--json', 'with --once: print the trace as JSON (tool calls, results, tokens)')
    .option('-y, --yes', 'approve every destructive tool call without asking')
    .option('--read-only', 'load only read-only tools')
    .option('--toolkit <name>', 'load one toolkit only: taxonomy or users')
    .option('--allow <names>', 'comma-separated allowlist of tool names')
    .option(...TOOLSETS_FLAG)
    .option(...ABILITIES_FLAG)
    .option('--sites <sites>', 'several site profiles (a,b | @group | all): every tool takes site, a write on several asks once')
    .option('--audit-log <file>', 'append a JSON line per write to this file (default: env CMS_AUDIT_LOG)')
    .option(...JOURNAL_FLAG)
    .option('--reset-link-file <file>', 'write reset links here (mode 0600) instead of on the terminal')
    .option(...ANSWER_BUDGET_FLAG)
    .option('--strict', 'strict-ready tool schemas (for strict-mode providers; see docs/providers.md)')
    .option('--max-steps <n>', 'model calls allowed per turn', String(DEFAULT_MAX_STEPS))
    .option(
      '--history-tokens <n>',
      'approximate tokens of conversation per model request; older tool results become one-line stubs (default: env CMS_HISTORY_TOKENS, else 24000)',
    )
    .addHelpText(
      'after',
      `
Model: OPENAI_API_KEY, OPENAI_BASE_URL (any OpenAI-compatible server), CMS_AGENT_MODEL.
Without a model, opens the tool shell: \`tool-name key=value …\` or \`tool-name {json}\`, answers
as tables, \`help tool-name\`, Tab completion, \`@ids\` (the ids of the last list), history kept in
$XDG_STATE_HOME/cms-admin/shell-history (docs/tool-shell.md).
Calls that grant power, move an account out of its owner's hands or delete (powerful roles,
email/password changes, enabling, disabling, resets, deletes, merges) ask y/n first, saying what
will change; without a terminal they are refused unless --yes is given. Reset links go to you
(terminal or --reset-link-file), never to the model.
The session starts with the default toolsets (taxonomy, users, changes; network on a network you
administer) or --toolsets; the model adds another with enable-toolset (\`cms-admin tools\` lists them).
The site's own WordPress abilities (6.9+): the abilities toolset finds, describes and runs them;
--abilities woocommerce/* offers those as tools of their own (docs/abilities.md).
Every write is journalled (--journal): /undo takes back the last change, /undo N the last N,
/undo ID one, after asking. In the chat: /help, /tools, /undo, /reset, /exit; Ctrl-C cancels
the current turn.
With --sites (profiles: \`cms-admin sites\`) every tool takes site (a name, "a,b", "@group" or
"all") and answers per site; list-sites names them. A write on more than one site asks one
question listing each site's change, read from that site; each site journals its own change, and
\`cms-admin undo --run ID\` (the id the answer gives) takes it back on each. docs/fleets.md.`,
    )
    .action(async (options: ChatOptions) => {
      const { runChat } = await import('./chat-run.js');
      process.exitCode = await runChat(options);
    });
}
