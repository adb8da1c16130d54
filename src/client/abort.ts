import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The signal that cancels the requests of the work in progress. Carried by async context so
 * that every request a piece of work makes (tool code, paging, batches) stops with it, without
 * each caller passing it along by hand.
 */
const current = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` so that its requests are cancelled when `signal` aborts; no signal: as is. */
export function withAbortSignal<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  return signal ? current.run(signal, work) : work();
}

export function currentAbortSignal(): AbortSignal | undefined {
  return current.getStore();
}

/**
 * Runs `work` outside any cancellation: for the clean-up a cancelled call still owes the site
 * (releasing the site lock), which must not be cancelled with the call it cleans up after.
 */
export function withoutAbortSignal<T>(work: () => Promise<T>): Promise<T> {
  return current.exit(work);
}
