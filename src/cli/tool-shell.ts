import { createInterface } from 'node:readline/promises';
import { type Approver, approveAll, refuseAll } from '../agent/approvals.js';
import { invoke, resolveCall } from '../call/envelope.js';
import { decideCall, selectTools, type ToolContext, type ToolFilter, tools } from '../call/index.js';
import { handleInterrupts } from './interrupt.js';
import { bold, dim, terminalApprover } from './terminal.js';
import { slashUndo } from './undo-command.js';

const HELP = `Type a tool call:
  tool-name {"key": "value"}      params as JSON
  tool-name key=value key2=[1,2]  params as key=value (values parsed as JSON when they can be)
  /tools  list tools    /undo  take back the last change (asks first)    /help  this help    /exit  quit
Ctrl-C cancels the running call; twice at the prompt quits.`;

/** `tool-name {json}` or `tool-name key=value …` → an envelope. */
export function parseShellLine(line: string): { tool: string; params?: Record<string, unknown> } {
  const match = /^(\S+)\s*(.*)$/s.exec(line.trim());
  const tool = match?.[1] ?? '';
  const rest = match?.[2]?.trim() ?? '';
  if (!rest) return { tool };
  if (rest.startsWith('{')) return { tool, params: JSON.parse(rest) };
  const params: Record<string, unknown> = {};
  for (const pair of rest.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? []) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`"${pair}" is not key=value.`);
    const raw = pair.slice(eq + 1).replace(/^'(.*)'$/s, '$1');
    params[pair.slice(0, eq)] = parseValue(raw);
  }
  return { tool, params };
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Administer the site without a model: the same tools, envelope checks and approvals. */
export async function runToolShell(options: {
  context: ToolContext;
  filter: ToolFilter;
  yes: boolean;
}): Promise<number> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
  let running: AbortController | undefined;
  let closed = false;
  rl.on('close', () => {
    closed = true;
  });
  handleInterrupts(rl, process.stdout, () => running, 'call');
  const approver: Approver = options.yes
    ? approveAll
    : process.stdin.isTTY
      ? terminalApprover(rl, process.stdout, () => running?.signal)
      : refuseAll;
  process.stdout.write(`${bold('cms-admin tool shell')}. ${HELP}\n`);
  while (!closed) {
    let line: string;
    try {
      process.stdout.write('\n'); // not in the prompt: see repl.ts
      line = (await rl.question(`${bold('tool>')} `)).trim();
    } catch {
      break;
    }
    if (!line) continue;
    if (line === '/exit' || line === '/quit') break;
    if (line === '/help') {
      process.stdout.write(`${HELP}\n`);
      continue;
    }
    if (line === '/undo') {
      process.stdout.write(`${await slashUndo(options.context, options.filter, approver)}\n`);
      continue;
    }
    if (line === '/tools') {
      for (const tool of selectTools(tools, options.filter))
        process.stdout.write(`${tool.name}  ${dim(tool.description)}\n`);
      continue;
    }
    let envelope: ReturnType<typeof parseShellLine>;
    try {
      envelope = parseShellLine(line);
    } catch (err) {
      process.stdout.write(`Could not read that: ${(err as Error).message}\n${HELP}\n`);
      continue;
    }
    running = new AbortController();
    try {
      const context = { ...options.context, signal: running.signal };
      const call = resolveCall(envelope, options.filter);
      const decision = call.ok ? await decideCall(call.tool, context, call.params, approver) : ({ ok: true } as const);
      if (!decision.ok) {
        process.stdout.write(`Not run: ${decision.error.message}\n`);
        continue;
      }
      // The params the question named (a resolved change_id), not the call's own.
      const run = call.ok && 'params' in decision && decision.params ? { tool: call.tool.name, params: decision.params } : envelope;
      const outcome = await invoke(run, context, options.filter);
      process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
    } finally {
      running = undefined;
    }
  }
  rl.close();
  return 0;
}
