import { afterEach, describe, expect, it, vi } from 'vitest';
import { BATCH_SIZE, type BatchTransport, nextBatchSize, sendBatches } from '../../src/client/batch.js';
import { WordPressError } from '../../src/client/errors.js';

/**
 * Batches bounded by time (#61): the first batch of a kind goes alone with WordPress's 25 items;
 * each next one takes as many as fit in a quarter of the client's timeout at the pace the last
 * showed, so a slow site gets smaller requests, never one near the timeout. A batch whose answer
 * is lost marks its items unknown (#59.12), the next goes alone, and two timed out in a row stop it.
 * The site is a fake whose batches take a set time per item on the test's own clock.
 */
afterEach(() => vi.useRealTimers());

/** A transport whose every batch takes `msPerItem` per item (on the faked clock); `lose(n)`: the n-th batch's answer is lost. */
function slowSite(msPerItem: number, timeoutMs: number, lose: (n: number) => boolean = () => false, lostAs = 'ECONNABORTED') {
  const sizes: number[] = [];
  const transport: BatchTransport = {
    concurrency: 4,
    timeoutMs,
    async post<T>(_path: string, body?: unknown): Promise<T> {
      const { requests } = body as { requests: unknown[] };
      sizes.push(requests.length);
      const took = Math.min(requests.length * msPerItem, timeoutMs);
      vi.advanceTimersByTime(took);
      if (took >= timeoutMs)
        throw new WordPressError({ code: 'ECONNABORTED', message: 'Request to WordPress timed out', request: { method: 'POST', url: '/batch/v1' } });
      if (lose(sizes.length)) throw new WordPressError({ code: lostAs, message: `Request to WordPress failed (${lostAs})`, request: { method: 'POST', url: '/batch/v1' } });
      return { responses: requests.map(() => ({ status: 201, body: {} })) } as T;
    },
  };
  return { transport, sizes };
}

const writes = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `/wp/v2/users/${i + 1}`, body: {} }));

describe('batches bounded by time (#61)', () => {
  it('sizes the next batch from how long the last took: a quarter of the timeout at most, 25 items at most', () => {
    expect(nextBatchSize(30_000, undefined)).toBe(BATCH_SIZE);
    expect(nextBatchSize(30_000, 5)).toBe(BATCH_SIZE);
    expect(nextBatchSize(30_000, 1_200)).toBe(6);
    expect(nextBatchSize(30_000, 60_000)).toBe(1);
  });

  it('a fast site keeps 25 a batch; a slow one gets smaller batches, none near the timeout', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const fast = slowSite(10, 30_000);
    expect((await sendBatches(fast.transport, writes(100))).every((r) => r.ok)).toBe(true);
    expect(fast.sizes).toEqual([25, 25, 25, 25]);

    // 1 s an item (bcrypt under load): the first batch of 25 takes 25 s, the others 7 items (7 s).
    const slow = slowSite(1_000, 30_000);
    expect((await sendBatches(slow.transport, writes(60))).every((r) => r.ok)).toBe(true);
    expect(slow.sizes[0]).toBe(25);
    expect(slow.sizes.slice(1).every((n) => n * 1_000 <= 30_000 / 4)).toBe(true);
    expect(slow.sizes.reduce((a, b) => a + b, 0)).toBe(60);
    // The pace is remembered per client: the next call starts from it.
    await sendBatches(slow.transport, writes(10));
    expect(slow.sizes.slice(-2)).toEqual([7, 3]);
  });

  it('a lost answer marks its items unknown; the next batch goes alone; two timed out in a row send nothing more', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const site = slowSite(10, 30_000, (n) => n === 1 || n === 2);
    const results = await sendBatches(site.transport, writes(60));
    expect(site.sizes).toHaveLength(2);
    expect(results.slice(0, 25 + (site.sizes[1] ?? 0)).every((r) => !r.ok && r.unknown)).toBe(true);
    const rest = results.slice(25 + (site.sizes[1] ?? 0));
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((r) => !r.ok && !r.unknown && r.error.code === 'batch_not_sent')).toBe(true);
  });

  it('answers lost on a connection that broke (not a timeout): every batch still sent, every item unknown', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const site = slowSite(10, 30_000, () => true, 'ECONNRESET');
    const results = await sendBatches(site.transport, writes(60));
    expect(site.sizes.reduce((a, b) => a + b, 0)).toBe(60);
    expect(results.every((r) => !r.ok && r.unknown)).toBe(true);
  });
});
