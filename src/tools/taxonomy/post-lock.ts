import type { WordPressClient } from '../../client/index.js';

/**
 * Post-term calls that share a client (one session: parallel tool calls of one agent) take
 * turns. Across processes, the companion plugin writes changes (nothing to lose), and the core
 * API path takes the site lock (site-lock.ts), which is held per client: this queue keeps two
 * calls of one client from both running under it. See docs/concurrency.md.
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
