import { createContext } from '../../src/config.js';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import { callTool as runCall, findTool, OPERATORS_OWN_CALL, type ToolContext } from '../../src/call/index.js';

export interface Measurement {
  /** Median wall time of the runs, milliseconds. */
  ms: number;
  /** HTTP requests of one run (the median run's). */
  requests: number;
  /** Bytes of JSON returned to the model (tools only). */
  bytes?: number;
  runs: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** A fresh, connected context whose request counter starts at zero. */
export async function freshContext(site: SandboxCredentials): Promise<ToolContext> {
  const context = createContext(site);
  await context.client.connect();
  context.client.stats.requests = 0;
  context.client.stats.retries = 0;
  return context;
}

/**
 * Runs `job` `runs` times, each after an untimed `prepare` (fixtures), on a fresh client, and
 * reports the median time with its request count.
 */
export async function measure<P>(
  site: SandboxCredentials,
  runs: number,
  prepare: (context: ToolContext, run: number) => Promise<P>,
  job: (context: ToolContext, input: P) => Promise<unknown>,
): Promise<Measurement & { lastOutput: unknown }> {
  const samples: Array<{ ms: number; requests: number; bytes: number }> = [];
  let lastOutput: unknown;
  for (let run = 0; run < runs; run++) {
    const setup = await freshContext(site);
    const input = await prepare(setup, run);
    const context = await freshContext(site);
    const started = performance.now();
    lastOutput = await job(context, input);
    const ms = performance.now() - started;
    samples.push({ ms, requests: context.client.stats.requests, bytes: Buffer.byteLength(JSON.stringify(lastOutput ?? null)) });
  }
  const ms = median(samples.map((s) => s.ms));
  const closest = samples.reduce((a, b) => (Math.abs(b.ms - ms) < Math.abs(a.ms - ms) ? b : a));
  return { ms, requests: closest.requests, bytes: closest.bytes, runs, lastOutput };
}

/** Runs a registry tool by name and fails loudly if it did not succeed. */
export async function callTool(context: ToolContext, name: string, params: Record<string, unknown>): Promise<unknown> {
  const tool = findTool(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const outcome = await runCall({ tool, params }, context, {}, OPERATORS_OWN_CALL);
  if (!outcome.ok) throw new Error(`${name} failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result;
}
