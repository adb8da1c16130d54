import { type WordPressClient, WordPressError } from '../client/index.js';
import { ToolError } from './tool-error.js';

/**
 * A delete whose answer did not come back (connection lost, 5xx) may have been applied: the
 * item is read back. Gone → the delete is done and the caller goes on as if answered; still
 * there → the original error; unreadable → `outcome_unknown`, saying what to check. A refusal
 * from WordPress (4xx) means nothing happened and is thrown as it is.
 */
export async function confirmDeleted(client: WordPressClient, path: string, what: string, err: unknown): Promise<void> {
  if (!wasLost(err)) throw err;
  try {
    await client.get(path, { _fields: 'id', context: 'edit' });
  } catch (readErr) {
    if (readErr instanceof WordPressError && (readErr.status === 404 || readErr.status === 410)) return;
    const why = readErr instanceof WordPressError ? readErr.code : String(readErr);
    throw new ToolError(
      'outcome_unknown',
      `${err.message}: the answer was lost, and reading ${what} back failed too (${why}), so whether it was deleted is unknown.`,
      { hint: `Check whether ${what} still exists (list it) before trying again.`, details: { lost: err.code } },
    );
  }
  throw err;
}

/**
 * A create or update whose answer did not come back may have been applied: `read` looks at the
 * site and returns the record when the write is there, undefined when it is not. There → the
 * write is done (returned as if answered); not there → the original error; unreadable →
 * `outcome_unknown`. A refusal from WordPress (4xx) means nothing happened: thrown as it is.
 */
export async function confirmWritten<T>(err: unknown, what: string, read: () => Promise<T | undefined>): Promise<T> {
  if (!wasLost(err)) throw err;
  let found: T | undefined;
  try {
    found = await read();
  } catch (readErr) {
    const why = readErr instanceof WordPressError ? readErr.code : String(readErr);
    throw new ToolError(
      'outcome_unknown',
      `${err.message}: the answer was lost, and reading ${what} back failed too (${why}), so whether the change was made is unknown.`,
      { hint: `Read ${what} (list it) before trying again.`, details: { lost: err.code } },
    );
  }
  if (found === undefined) throw err;
  return found;
}

/**
 * No answer, or a 5xx: the write may have been applied. A refusal (4xx) means it was not; a
 * cancelled call stays `cancelled` (its reads are cancelled too, and its hint says to read the
 * site before retrying).
 */
function wasLost(err: unknown): err is WordPressError {
  if (!(err instanceof WordPressError) || err.code === 'cancelled') return false;
  return err.status === undefined || err.status >= 500;
}
