import type { WordPressClient } from '../../client/index.js';

/**
 * Writing a post's terms is read-modify-write: WordPress's `categories`/`tags` fields replace
 * the whole list. Two such calls in flight at once (parallel tool calls of one agent) would
 * each write the list they read, and one change would be lost. Calls that share a client
 * (one session) therefore take turns. Separate processes are not covered: WordPress offers
 * no conditional update to build that on.
 */
const queues = new WeakMap<WordPressClient, Promise<unknown>>();

export function withPostTermsLock<T>(client: WordPressClient, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(client) ?? Promise.resolve();
  const result = previous.then(task, task);
  queues.set(
    client,
    result.catch(() => undefined),
  );
  return result;
}
