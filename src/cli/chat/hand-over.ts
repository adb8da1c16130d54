import { appendFile, chmod } from 'node:fs/promises';
import type { HandedSecret, SecretHandOver } from '../../call/index.js';
import { bold, yellow } from '../render/terminal.js';

/**
 * Reset links for the person at the keyboard, never for the model: appended to `file` (mode
 * 0600, also when it existed) when given, else written to the terminal (stderr, so a `--json`
 * trace on stdout stays free of them).
 */
export function operatorHandOver(file?: string, out: NodeJS.WritableStream = process.stderr): SecretHandOver {
  return async (secret: HandedSecret) => {
    const what = `Password reset link for ${secret.user.username} (id ${secret.user.id}), valid ${secret.expires_in_hours} h; give it only to them`;
    if (file) {
      await appendFile(file, `${new Date().toISOString()} ${what}:\n${secret.value}\n`, { mode: 0o600 });
      await chmod(file, 0o600);
      out.write(`${yellow('Reset link')} for ${secret.user.username} written to ${file}.\n`);
      return `the operator (written to a private file)`;
    }
    out.write(`\n${yellow(`${what}:`)}\n${bold(secret.value)}\n\n`);
    return "the operator's terminal";
  };
}
