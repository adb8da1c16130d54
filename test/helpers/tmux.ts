import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A Unix socket path holds at most 107 bytes on Linux (sun_path). */
const MAX_SOCKET_PATH = 100;

/**
 * A real terminal for the interactive commands: tmux runs the command, `type` sends keys,
 * `screen` reads what is shown, and the waits poll a condition (never a fixed sleep).
 *
 * Each terminal has a tmux server of its own, on a socket in a new folder of the run's temporary
 * folder (`tmux -S`), which `stop()` kills and removes: terminal tests never share a server. Four
 * workers starting their sessions on the user's one default server at once failed one of them
 * with "server exited unexpectedly" (issue #53).
 */
export class TmuxTerminal {
  readonly session: string;
  /** The socket of this terminal's own tmux server. */
  private dir: string | undefined;

  constructor(name: string) {
    this.session = `${name}-${process.pid}`;
  }

  /** The socket of this terminal's own tmux server, in a folder made on first use. */
  get socket(): string {
    if (!this.dir) {
      // TMPDIR is the run's folder (test/run-tmp.ts); one too long for a socket path falls back to /tmp.
      const base = join(tmpdir(), 'tmux-XXXXXX', 'sock').length <= MAX_SOCKET_PATH ? tmpdir() : '/tmp';
      this.dir = mkdtempSync(join(base, 'tmux-'));
    }
    return join(this.dir, 'sock');
  }

  /** A tmux command on this terminal's own server. */
  run(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' });
  }

  start(command: string): void {
    // -f /dev/null: the user's ~/.tmux.conf does not change what the tests see.
    this.run('-f', '/dev/null', 'new-session', '-d', '-s', this.session, '-x', '200', '-y', '50', command);
  }

  /** Kills this terminal's server (gone already when its command exited) and removes its socket. */
  stop(): void {
    if (!this.dir) return;
    try {
      this.run('kill-server');
    } catch {}
    rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  /** Keys as tmux names them: text, 'Enter', 'C-c'. */
  type(...keys: string[]): void {
    this.run('send-keys', '-t', this.session, ...keys);
  }

  screen(): string {
    return this.run('capture-pane', '-p', '-J', '-S', '-200', '-t', this.session);
  }

  /** The whole scrollback. */
  scrollback(): string {
    return this.run('capture-pane', '-p', '-J', '-S', '-', '-t', this.session);
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
