import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../src/evals/loader.js';
import { type ModelSource, scriptedSource } from '../../src/evals/models.js';
import { formatTable } from '../../src/evals/report.js';
import { runEvals } from '../../src/evals/run-evals.js';
import { siteUp } from '../../src/sandbox/index.js';
import { networkSandboxOptions } from '../helpers/network.js';
import { recordSecret } from '../helpers/output-log.js';
import { evalSandbox, recordEvalRestores } from './helpers.js';

// The network evals (issue #39: target: network) with --model scripted, on the test network:
// each case from the network as installed, checked by reading the network back.
let models: ModelSource;
beforeAll(async () => {
  models = await scriptedSource();
  recordSecret((await siteUp(networkSandboxOptions())).appPassword);
}, 300_000);
afterAll(async () => models?.close());

describe('network evals with --model scripted', () => {
  it('has at least three network cases; each replays through the real runner with the network tools and passes', async () => {
    const cases = (await loadCases()).filter((c) => c.target === 'network');
    expect(cases.map((c) => c.id).sort()).toEqual(['network-give-author', 'network-remove-everywhere', 'network-super-admins']);
    const report = recordEvalRestores(await runEvals({ cases, models, sandbox: evalSandbox(), networkSandbox: networkSandboxOptions() }));
    const failed = report.cases.filter((c) => !c.passed).map((c) => `${c.id}: ${c.failures.join(' | ')}`);
    expect(failed).toEqual([]);
    for (const result of report.cases) expect(result.toolCalls.length, result.id).toBeGreaterThan(0);
    process.stderr.write(`${formatTable(report)}\n`);
  }, 600_000);
});
