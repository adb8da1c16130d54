import { createInterface } from 'node:readline/promises';
import type { Approver } from '../../agent/approvals.js';
import type { ChatSession, TurnEvent } from '../../agent/runner.js';
import { handleInterrupts } from './interrupt.js';
import { undoArg } from '../undo/undo-command.js';
import { bold, dim, formatToolCall, formatToolResult, terminalApprover, yellow } from '../render/terminal.js';

export interface ReplOptions {
  makeSession: (approver: Approver) => ChatSession;
  /** Fixed approver (--yes, or no terminal); undefined = ask on the terminal. */
  approver: Approver | undefined;
  site: string;
  model: string;
  /** `/undo [N|ID]`: takes back the last change, the last N or one, after the approver agrees; returns what to print. */
  undo?: (approver: Approver, arg: string) => Promise<string>;
}

const HELP = `Commands:
  /help   this help
  /tools  the tools the agent can use
  /undo   take back the last change; /undo N the last N; /undo ID one (asks first, saying what it restores)
  /reset  forget the conversation so far
  /exit   quit (or Ctrl-D)
Ctrl-C cancels the current turn; twice at the prompt quits.`;

/** The interactive chat: streamed answers, tool calls and results, approvals, history. */
export async function runRepl(options: ReplOptions): Promise<number> {
  const out = process.stdout;
  const rl = createInterface({ input: process.stdin, output: out, terminal: Boolean(process.stdin.isTTY) });
  let turn: AbortController | undefined;
  const approver = options.approver ?? terminalApprover(rl, out, () => turn?.signal);
  const session = options.makeSession(approver);
  let closed = false;
  rl.on('close', () => {
    closed = true;
  });
  handleInterrupts(rl, out, () => turn, 'turn');

  out.write(`${bold('cms-admin chat')} — site ${options.site}, model ${options.model}. /help for commands.\n`);
  while (!closed) {
    let line: string;
    try {
      // The blank line is not part of the prompt: a one-line prompt keeps readline's redraw
      // (after Ctrl-C) from erasing the line written above it.
      out.write('\n');
      line = (await rl.question(`${bold('you>')} `)).trim();
    } catch {
      break;
    }
    if (!line) continue;
    if (line === '/exit' || line === '/quit') break;
    if (line === '/help') {
      out.write(`${HELP}\n`);
      continue;
    }
    if (line === '/tools') {
      out.write(`${session.toolNames.join('\n')}\n`);
      continue;
    }
    const undo = undoArg(line);
    if (undo !== undefined && options.undo) {
      out.write(`${await options.undo(approver, undo)}\n`);
      continue;
    }
    if (line === '/reset') {
      session.reset();
      out.write(`${dim('Conversation cleared.')}\n`);
      continue;
    }
    if (line.startsWith('/')) {
      out.write(`Unknown command ${line}. ${HELP}\n`);
      continue;
    }
    turn = new AbortController();
    let midLine = false;
    const onEvent = (event: TurnEvent) => {
      if (event.type === 'text') {
        if (!midLine) out.write(`${bold('agent>')} `);
        out.write(event.delta);
        midLine = true;
        return;
      }
      if (midLine) out.write('\n');
      midLine = false;
      out.write(
        `${event.type === 'tool_call' ? formatToolCall(event.name, event.args) : formatToolResult(event.content)}\n`,
      );
    };
    const result = await session.turn(line, { signal: turn.signal, onEvent });
    turn = undefined;
    if (midLine) out.write('\n');
    if (result.stopped) out.write(`${yellow(result.stopped.message)}\n`);
  }
  rl.close();
  return 0;
}
