import { afterAll, beforeAll } from 'vitest';
import { createContext } from '../../src/config.js';
import { invoke } from '../../src/call/envelope.js';
import type { ToolContext } from '../../src/call/index.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { testSite, withoutCompanion } from '../helpers/site.js';
import { pickFault, tally } from './fault-checks.js';

/**
 * Shared by the faults-*.test.ts files: the tools through a proxy that drops, delays and
 * fails requests. Whatever the faults, every post is reported exactly once and no report
 * claims a change the site does not have; writes are never repeated; reads are; nothing waits
 * forever. Checks read the site directly (`wp()`).
 */
export let proxy: FaultProxy;

/** Starts a proxy for the calling test file and logs what it injected when the file ends. */
export function useFaultProxy(): void {
  beforeAll(async () => {
    proxy = await new FaultProxy(testSite().url, { seed: 20240508 }).start();
  });
  afterAll(async () => {
    await proxy?.stop();
    const faults = proxy.faults();
    const total = Object.values(faults).reduce((a, b) => a + b, 0);
    const kinds = Object.entries(faults)
      .map(([kind, n]) => `${kind}: ${n}`)
      .join(', ');
    console.log(
      `faults: ${total} injected (${kinds}); posts checked: ${tally.postsChecked}, posts lost: ${tally.postsLost}, duplicate writes: ${tally.duplicateWrites}`,
    );
  });
}

/**
 * A fresh client (own keep-alive sockets, own connect()) whose site URL is the proxy. By
 * default it does not use the companion plugin, so bulk writes go through /batch/v1 (the
 * REST-only path); `companion()` keeps the plugin's bulk route.
 */
export function proxied(timeoutMs?: number): ToolContext {
  return withoutCompanion(companion(timeoutMs));
}

export function companion(timeoutMs?: number): ToolContext {
  return createContext({ ...testSite(), url: proxy.url }, { timeoutMs });
}

/** A tool call through `context`; a bug (internal_error) fails the test, whatever the faults. */
export async function run(context: ToolContext, tool: string, params?: Record<string, unknown>) {
  const outcome = await invoke(params === undefined ? { tool } : { tool, params }, context);
  if (!outcome.ok && outcome.error.code === 'internal_error') throw new Error(`Bug: ${outcome.error.message}`);
  return outcome;
}

export const BATCH = /^\/wp-json\/batch\/v1/;
export const BULK = /^\/wp-json\/cms-admin\/v1\/post-terms/;
export const POSTS = /^\/wp-json\/wp\/v2\/posts\?/;
export const CATEGORIES = /^\/wp-json\/wp\/v2\/categories\?/;

/**
 * Starts a seeded random-fault run: clears earlier rules and fails about a fifth of all reads
 * (503 before forwarding, or the connection dropped before or after it).
 */
export function randomReadFaults(seed: number, whens: ReadonlyArray<'before' | 'after'> = ['after']): FaultProxy {
  return proxy
    .clear()
    .reseed(seed)
    .inject({
      method: 'GET',
      probability: 0.2,
      fault: pickFault([
        { kind: 'status', status: 503, when: 'before' },
        ...whens.map((when) => ({ kind: 'drop' as const, when })),
      ]),
    });
}
