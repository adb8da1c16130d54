import { execFileSync } from 'node:child_process';

/**
 * A real terminal for the interactive commands: tmux runs the command, `type` sends keys,
 * `screen` reads what is shown, and the waits poll a condition (never a fixed sleep).
 */
export class TmuxTerminal {
  readonly session: string;

  constructor(name: string) {
    this.session = `${name}-${process.pid}`;
  }

  static run(...args: string[]): string {
    return execFileSync('tmux', args, { encoding: 'utf8' });
  }

  start(command: string): void {
    TmuxTerminal.run('new-session', '-d', '-s', this.session, '-x', '200', '-y', '50', command);
  }

  stop(): void {
    try {
      TmuxTerminal.run('kill-session', '-t', this.session);
    } catch {}
  }

  /** Keys as tmux names them: text, 'Enter', 'C-c'. */
  type(...keys: string[]): void {
    TmuxTerminal.run('send-keys', '-t', this.session, ...keys);
  }

  screen(): string {
    return TmuxTerminal.run('capture-pane', '-p', '-J', '-S', '-200', '-t', this.session);
  }

  async waitFor(text: string | RegExp, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const shown = this.screen();
      if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${text}. Screen:\n${shown}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  async until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}. Screen:\n${this.screen()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
