import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, slowest first (measured: docs/testing.md). vitest orders files by
 * the durations it cached from the last run, but a fresh clone has none and would start them by
 * size, so one of these could start last and run alone at the end while the other workers idle.
 */
export const SLOW_FILES = [
  // By their time in a fresh clone's `npm test` (quick budgets, 3 workers, quiet machine, #53),
  // longest first: the ten slowest of that run, then the rest that took over ~20 s before.
  'test/evals/scripted-suite.test.ts',
  'test/package/pack.test.ts',
  // Every refusal code through both paths (#52.10): ~50 s quiet, 120 s with the cores busy.
  'test/wordpress/refusal-paths.test.ts',
  // The packed tarball with the lowest version of each peer range (#52.15): ~60 s of installs.
  'test/package/peer-floors.test.ts',
  'test/reliability/undo-property-b.test.ts',
  // Every surface started (MCP servers, a terminal, a model server), two write tools each (quick).
  'test/reliability/surface-property.test.ts',
  'test/cli/readme.test.ts',
  'test/reliability/concurrent-tools.test.ts',
  'test/cli/mcp-conformance.test.ts',
  'test/cli/mcp-structured.test.ts',
  // Two PostgreSQL clusters and four replicas (#49).
  'test/cli/mcp-postgres-changes.test.ts',
  'test/cli/mcp-postgres-signin.test.ts',
  // A PostgreSQL cluster restarted twice (#59.2); the change store locked past its 15 s busy timeout (#59.7).
  'test/cli/postgres-restart.test.ts',
  'test/reliability/journal-lost.test.ts',
  // It brings up two more sandboxes (one WordPress 6.1) when not running (test/helpers/fleet.ts).
  'test/agent/fleet-agent.test.ts',
  'test/reliability/undo-property.test.ts',
  'test/wordpress/users/import-users.test.ts',
  'test/reliability/concurrent-writers.test.ts',
  'test/cli/mcp-http-oauth-load.test.ts',
  'test/reliability/undo-faults.test.ts',
  'test/reliability/faults-merge.test.ts',
  'test/wordpress/undo-parallel.test.ts',
  'test/cli/invoke.test.ts',
  'test/evals/report.test.ts',
  'test/cli/journal-safety.test.ts',
  'test/cli/config.test.ts',
  'test/wordpress/taxonomy/merge-categories.test.ts',
  'test/cli/network-sites.test.ts',
  // 500 tags seeded, pruned and given back twice (#51): 20 s quiet, 80 s with the cores busy.
  'test/wordpress/cleanup/prune-terms.test.ts',
  // The other fleet files: their worker's fleet sandboxes may be up already (fleet-agent's).
  'test/cli/mcp-fleet.test.ts',
  'test/cli/fleet-journal.test.ts',
  'test/evals/fleet-evals.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = SLOW_FILES.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return i === -1 ? SLOW_FILES.length : i;
    };
    // Stable: the rest keep vitest's order (cached durations, failed first).
    return sorted
      .map((spec, index) => ({ spec, index, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
