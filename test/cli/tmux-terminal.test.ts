import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { TmuxTerminal } from '../helpers/tmux.js';

// The terminal tests' helper (issue #53): every terminal runs on a tmux server of its own, on a
// socket in the run's temporary folder, and stop() leaves neither server nor socket behind. On
// the user's one default server, four workers starting sessions at once failed one with
// "server exited unexpectedly".
it('each terminal has its own tmux server and socket, in the run folder; stop() removes both', async () => {
  const terms = Array.from({ length: 4 }, () => new TmuxTerminal('cms-own-server'));
  try {
    for (const [i, term] of terms.entries()) term.start(`echo terminal-${i}; sleep 600`);
    const sockets = terms.map((t) => t.socket);
    expect(new Set(sockets).size).toBe(4);
    for (const socket of sockets) expect(socket.startsWith(`${process.env.CMS_TEST_RUN_TMP}/`), socket).toBe(true);
    for (const [i, term] of terms.entries()) {
      await term.waitFor(`terminal-${i}`);
      // One session on each server: its own.
      expect(term.run('list-sessions', '-F', '#{session_name}').trim()).toBe(term.session);
    }
    for (const term of terms) {
      const socket = term.socket;
      term.stop();
      expect(existsSync(socket), socket).toBe(false);
      expect(() => execFileSync('tmux', ['-S', socket, 'list-sessions'], { stdio: 'pipe' })).toThrow();
    }
  } finally {
    for (const term of terms) term.stop();
  }
});
