import { createInterface } from 'node:readline/promises';
import { type Approver, approveAll, refuseAll } from '../../agent/approvals.js';
import { ENABLE_TOOLSET, invoke, selectTools, type ToolContext, type ToolFilter, tools, ToolsetSession } from '../../call/index.js';
import { handleInterrupts } from './interrupt.js';
import { itemIds, listItems, renderAnswer } from '../render/answer.js';
import { shellCompleter } from './complete.js';
import { toolHelp } from './help.js';
import { loadHistory, rememberLine } from './history.js';
import { parseShellLine } from './parse.js';
import { bold, dim, terminalApprover } from '../render/terminal.js';
import { slashUndo, undoArg } from '../undo/undo-command.js';

export { parseShellLine } from './parse.js';

const NOT_APPROVED = new Set(['rejected_by_user', 'approval_unavailable']);

const HELP = `Type a tool call:
  tool-name key=value ids=1,2     params as key=value (JSON where it parses); a list: a,b,c or one value
                                  a login, email or slug where an id goes (a number is an id)
  tool-name {"key": "value"}      params as JSON
  help tool-name                  its parameters and an example; Tab completes tools and params
  post_ids=@ids                   the ids of the items of the last list answer
  /tools  list tools   /undo [N|ID]  take back the last change, the last N, or one (asks first)
  /json   answers as JSON (again: tables)   /help  this help   /exit  quit
Ctrl-C cancels the running call; twice at the prompt quits.`;

/** Administer the site without a model: the same tools, envelope checks and approvals. */
export async function runToolShell(options: {
  context: ToolContext;
  filter: ToolFilter;
  yes: boolean;
}): Promise<number> {
  // --toolsets chose where the session starts (not a limit): enable-toolset adds another (#58.8).
  // Without it the shell reaches every toolset.
  const toolsets = options.filter.toolsets ? new ToolsetSession(tools, options.filter) : undefined;
  const filter = (): ToolFilter => toolsets?.filter ?? options.filter;
  const shown = () => selectTools(tools, filter());
  const terminal = Boolean(process.stdin.isTTY);
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal,
    ...(terminal ? { completer: shellCompleter(shown), history: loadHistory(), historySize: 500 } : {}),
  });
  // Piped input (a script, a test) arrives all at once: readline emits lines while no question is
  // pending, and `question()` would lose them. Its async iterator buffers every line, in order.
  const piped = terminal ? undefined : rl[Symbol.asyncIterator]();
  let running: AbortController | undefined;
  let closed = false;
  let json = false;
  let lastIds: Array<number | string> = [];
  rl.on('close', () => {
    closed = true;
  });
  handleInterrupts(rl, process.stdout, () => running, 'call');
  const approver: Approver = options.yes
    ? approveAll
    : terminal
      ? terminalApprover(rl, process.stdout, () => running?.signal)
      : refuseAll;
  const say = (text: string) => process.stdout.write(`${text}\n`);
  say(`${bold('cms-admin tool shell')}. ${HELP}`);
  while (piped || !closed) {
    let line: string;
    try {
      process.stdout.write('\n'); // not in the prompt: see repl.ts
      if (piped) {
        process.stdout.write(`${bold('tool>')} `);
        const next = await piped.next();
        if (next.done) break;
        line = next.value.trim();
      } else line = (await rl.question(`${bold('tool>')} `)).trim();
    } catch {
      break;
    }
    if (!line) continue;
    if (terminal) rememberLine(line);
    if (line === '/exit' || line === '/quit') break;
    if (line === '/help' || line === 'help') {
      say(HELP);
      continue;
    }
    if (line === '/json') {
      json = !json;
      say(json ? 'Answers as JSON (/json again for tables).' : 'Answers as tables.');
      continue;
    }
    const undo = undoArg(line);
    if (undo !== undefined) {
      say(await slashUndo(options.context, filter(), approver, undo));
      continue;
    }
    if (line === '/tools') {
      for (const tool of shown()) say(`${tool.name}  ${dim(tool.description)}`);
      const more = toolsets?.enableTool();
      if (more) say(`${ENABLE_TOOLSET} toolset=NAME  ${dim(more.description)}`);
      continue;
    }
    const help = /^(?:help|\/help)\s+(\S+)$/.exec(line);
    if (help) {
      const tool = shown().find((t) => t.name === help[1]);
      say(tool ? toolHelp(tool, process.stdout.columns) : `No tool "${help[1]}" here: /tools lists them.`);
      continue;
    }
    let envelope: ReturnType<typeof parseShellLine>;
    try {
      envelope = parseShellLine(line, lastIds);
    } catch (err) {
      say(`Could not read that: ${(err as Error).message}\n${HELP}`);
      continue;
    }
    if (envelope.tool === ENABLE_TOOLSET && toolsets) {
      const outcome = toolsets.enable(envelope.params ?? {});
      say(json ? JSON.stringify(outcome, null, 2) : renderAnswer(envelope.tool, envelope.params, outcome, process.stdout.columns));
      continue;
    }
    running = new AbortController();
    try {
      const context = { ...options.context, signal: running.signal };
      // The pipeline (call/): resolved once (names to ids), decided by this shell's approver (a
      // terminal's question, --yes, or refused without a terminal), then exactly that call run.
      const outcome = await invoke(envelope, context, filter(), { approver });
      // Declined here (or no one could be asked): said to the person, without the model's hint.
      if (!outcome.ok && NOT_APPROVED.has(outcome.error.code)) {
        say(`Not run: ${outcome.error.message}`);
        continue;
      }
      if (outcome.ok && listItems(outcome.result)) lastIds = itemIds(outcome.result);
      say(json ? JSON.stringify(outcome, null, 2) : renderAnswer(envelope.tool, envelope.params, outcome, process.stdout.columns));
    } finally {
      running = undefined;
    }
  }
  rl.close();
  return 0;
}
