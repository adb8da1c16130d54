import { createContext } from '../../src/config.js';
import type { ToolOutcome } from '../../src/call/index.js';
import type { FaultRule } from '../helpers/fault-proxy.js';
import { restOnlyContext, testSite } from '../helpers/site.js';
import { BATCH, BULK, companion, proxied, proxy } from './fault-setup.js';

/**
 * Two calls meet (concurrent-writers*.test.ts): the first call's bulk writes are held at the
 * proxy while the second call runs from start to end (straight to the site), then released.
 * No sleeps: the proxy says when it holds a write, and the release follows the second call's
 * answer. `first` goes through the proxy, `second` straight to the site, on the same path.
 * `writes`: the POSTs to hold, or any request rule.
 */
export const PATHS = [
  { path: 'companion plugin', first: () => companion(), second: () => createContext(testSite()), writes: BULK },
  { path: 'core API (/batch/v1)', first: () => proxied(), second: () => restOnlyContext(), writes: BATCH },
] as const;

export async function meet(
  writes: RegExp | Omit<FaultRule, 'fault'>,
  first: () => Promise<ToolOutcome>,
  second: () => Promise<ToolOutcome>,
): Promise<[ToolOutcome, ToolOutcome]> {
  const held = writes instanceof RegExp ? { method: 'POST', path: writes } : writes;
  proxy.clear().inject({ ...held, fault: { kind: 'hold' } });
  const a = first();
  const early = a.then((o) => Promise.reject(new Error(`the first call ended before writing: ${JSON.stringify(o)}`)));
  await Promise.race([proxy.whenHeld(), early]);
  early.catch(() => undefined);
  const b = await second();
  proxy.release();
  const outcomes: [ToolOutcome, ToolOutcome] = [await a, b];
  proxy.clear();
  return outcomes;
}
