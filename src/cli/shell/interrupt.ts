import type { Interface } from 'node:readline/promises';
import { dim } from '../render/terminal.js';

/**
 * Ctrl-C in the interactive commands (chat, tool shell): while work runs it cancels that work
 * (its HTTP requests stop; bulk work stops between chunks and reports what ran); at the prompt
 * it clears the line, and a second one within two seconds quits.
 */
export function handleInterrupts(
  rl: Interface,
  out: NodeJS.WritableStream,
  running: () => AbortController | undefined,
  what: string,
): void {
  let lastInterrupt = 0;
  rl.on('SIGINT', () => {
    const work = running();
    if (work) {
      work.abort();
      out.write(`\n${dim(`(cancelling this ${what}…)`)}\n`);
      return;
    }
    if (Date.now() - lastInterrupt < 2000) {
      rl.close();
      return;
    }
    lastInterrupt = Date.now();
    // Drop what was typed, say so on a line of its own, then show the prompt again. The prompts
    // are one line (repl.ts, tool-shell.ts): readline's redraw of a longer one erases the message.
    rl.write(null, { ctrl: true, name: 'u' });
    out.write(`\n${dim('(Ctrl-C again, /exit or Ctrl-D to quit)')}\n`);
    rl.prompt();
  });
}
