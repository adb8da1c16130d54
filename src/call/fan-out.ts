/**
 * Runs `work` on each item with at most `concurrency` at once (a fleet of 500 sites is not
 * 500 sockets and 500 answers in memory at once). Once `signal` aborts, no new item starts:
 * those are reported as not started; those under way finish (their own requests see the
 * signal when `work` passes it on). One item's failure is its own: `work` returns data.
 */
export type FanOutResult<T, R> = { item: T; started: true; value: R } | { item: T; started: false };

export async function fanOut<T, R>(
  items: readonly T[],
  work: (item: T) => Promise<R>,
  opts: { concurrency?: number; signal?: AbortSignal; onDone?: (item: T, value: R) => void } = {},
): Promise<FanOutResult<T, R>[]> {
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const results: FanOutResult<T, R>[] = items.map((item) => ({ item, started: false }));
  let next = 0;
  const worker = async () => {
    while (next < items.length && !opts.signal?.aborted) {
      const i = next++;
      const item = items[i] as T;
      const value = await work(item);
      results[i] = { item, started: true, value };
      opts.onDone?.(item, value);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
