import type { Interface } from 'node:readline/promises';
import type { ApprovalDecision, Approver } from '../../agent/approvals.js';
import { summarizeToolResult } from '../../summary.js';
import { maskSecretParams } from '../../redact.js';

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string) => (text: string) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);
export const dim = paint('2');
export const bold = paint('1');
export const red = paint('31');
export const green = paint('32');
export const yellow = paint('33');

export function formatToolCall(name: string, args: unknown): string {
  return dim(`→ ${name} ${JSON.stringify(maskSecretParams(args))}`);
}

export function formatToolResult(content: string): string {
  const { ok, line } = summarizeToolResult(content);
  return ok ? dim(`  ${green('✓')} ${line}`) : `  ${red('✗')} ${line}`;
}

/**
 * Asks y/n on the terminal for each call that needs approval, showing once, in plain words,
 * what it will change (read from the site; the raw call is already on screen in the chat).
 * Ctrl-C during the question cancels the turn and answers "no".
 */
export function terminalApprover(
  rl: Interface,
  output: NodeJS.WritableStream,
  currentSignal: () => AbortSignal | undefined,
): Approver {
  return async ({ summary }): Promise<ApprovalDecision> => {
    output.write(`\n${yellow('Approval needed:')} ${approvalText(summary)}\n`);
    let answer: string;
    try {
      const signal = currentSignal();
      answer = (await rl.question('Run it? [y/N] ', signal ? { signal } : {})).trim().toLowerCase();
    } catch {
      return { approved: false, reason: 'The person cancelled.' };
    }
    return answer === 'y' || answer === 'yes' ? { approved: true } : { approved: false, reason: 'The person said no.' };
  };
}

/** One change on the question's line; several (an undo of the last N) as a list, one a line. */
export function approvalText(summary: string): string {
  const lines = summary.split('\n').filter(Boolean);
  return lines.length > 1 ? `${lines.length} changes:\n${lines.map((l) => `  • ${bold(l)}`).join('\n')}` : bold(summary);
}
