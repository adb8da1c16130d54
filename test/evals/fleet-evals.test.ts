import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/client/index.js';
import { FLEET_CASES_DIR, loadCases } from '../../src/evals/loader.js';
import { type ModelSource, scriptedSource } from '../../src/evals/models.js';
import { type FleetEvalSite, runFleetCase } from '../../src/evals/run-fleet-case.js';
import { restoreSnapshot } from '../../src/sandbox/index.js';
import { timedReset } from '../helpers/reset-time.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { recordOutput } from '../helpers/output-log.js';

// The fleet evals (issue #38): evals/fleet-cases on three real sandboxes (one WordPress 6.1),
// the scripted model replaying each reference through the real runner on all sites at once;
// every case's end state read from each site.
let fleet: Fleet;
let models: ModelSource;
let sites: FleetEvalSite[];

beforeAll(async () => {
  fleet = await startFleet();
  models = await scriptedSource();
  const groups: Record<string, string[]> = { one: ['magazines'], two: ['magazines'], three: [] };
  sites = fleet.sites.map((s) => ({
    name: s.name,
    groups: groups[s.name] ?? [],
    sandbox: { ...s.sandbox, log: () => {} },
    site: { url: s.url, username: s.username, appPassword: s.appPassword },
    checkClient: new WordPressClient(s),
  }));
}, 300_000);
afterAll(async () => {
  await models?.close();
  // Leaves every site as seeded for the other files.
  for (const s of sites ?? []) await timedReset('restores of the seeded snapshot', () => restoreSnapshot(s.sandbox, 'seeded'));
  await fleet?.stop();
});

describe('evals/fleet-cases with --model scripted', { timeout: 600_000 }, () => {
  it('has the three fleet tasks, each a fleet case, and every one passes on every site', async () => {
    const cases = await loadCases(FLEET_CASES_DIR);
    expect(cases.map((c) => c.id).sort()).toEqual(['fleet-category-on-group', 'fleet-remove-user-everywhere', 'fleet-who-is-admin']);
    for (const evalCase of cases) {
      expect(evalCase.target).toBe('fleet');
      const result = await runFleetCase(evalCase, sites, models);
      recordOutput(JSON.stringify(result));
      expect(result.failures, evalCase.id).toEqual([]);
      expect(result.passed).toBe(true);
      if (evalCase.id === 'fleet-category-on-group') {
        // One question for the two magazines, listing each.
        expect(result.approvals).toHaveLength(1);
      }
    }
  });
});
