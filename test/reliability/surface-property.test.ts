import { afterAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/call/index.js';
import { budgetCount, printBudget, runSeed, testBudget } from '../helpers/budget.js';
import { recordSecret } from '../helpers/output-log.js';
import { SURFACE_FIXTURES } from '../helpers/surface-fixtures.js';
import { siteState } from '../helpers/surface-state.js';
import { type Surface, SURFACES, type SurfaceName } from '../helpers/surfaces.js';
import { stopRemoteSurfaces } from '../helpers/surfaces-remote.js';

/**
 * The surface property (#58 "By construction"): for every write tool of the registry (new ones
 * included: the registry is iterated, test/unit/surface-fixtures.test.ts requires each a call) and
 * every surface — `cms-admin invoke`, the tool shell without and with a terminal, the chat runner,
 * the toolkits with an approver, `approvals: 'interrupt'`, humanInTheLoopMiddleware through
 * approvalInterruptOn, MCP over stdio and HTTP on both revisions — the same call given with ids and
 * with names is asked the same question, or runs without one on both; a declined question writes
 * nothing (read back from WordPress). `invoke` runs the operator's own call as given: its dry runs
 * of both forms answer the same. Quick: a sample of tools per surface from the run's seed; full:
 * every pair. Replay: CMS_TEST_SEED=<seed>, or SURFACE_TOOLS=a,b for those tools on every surface.
 */
const seed = runSeed();
const writes = tools.filter((tool) => !tool.annotations.readOnly).map((tool) => tool.name);
const perSurface = Math.min(writes.length, budgetCount('surfaceProperty', 'surface property'));
const forced = process.env.SURFACE_TOOLS?.split(',').filter(Boolean);
printBudget(`surface property: seed ${seed} (CMS_TEST_SEED=${seed} replays it)`);

/** The tools one surface runs this time: every one (full), or a sample drawn from the seed and the surface's name. */
function toolsFor(surface: string): string[] {
  if (forced) return forced;
  let state = [...surface].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, seed) || 1;
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0);
  const shuffled = writes.map((name) => ({ name, key: next() })).sort((a, b) => a.key - b.key);
  return shuffled.slice(0, perSurface).map((s) => s.name);
}

const started = new Map<SurfaceName, Surface>();
afterAll(async () => {
  for (const surface of started.values()) await surface.stop?.();
  await stopRemoteSurfaces();
});

const timeout = testBudget() === 'full' ? 3_600_000 : 600_000;

describe('a call given with ids and with names, on every surface', () => {
  it.each(Object.keys(SURFACES) as SurfaceName[])(
    '%s: the same question (or none) for both forms; declined, nothing is written',
    async (name) => {
      const surface = await SURFACES[name]();
      started.set(name, surface);
      for (const tool of toolsFor(name)) {
        const fixture = SURFACE_FIXTURES[tool];
        if (!fixture) throw new Error(`no surface fixture for ${tool} (test/helpers/surface-fixtures-*.ts)`);
        const where = `${name} × ${tool} (replay: CMS_TEST_SEED=${seed} SURFACE_TOOLS=${tool})`;
        const made = await fixture.make();
        for (const secret of made.secrets ?? []) recordSecret(secret);
        const before = await siteState(made.watch);
        const byIds = await surface.call(tool, made.ids);
        if (byIds.asked !== undefined || name === 'invoke') expect(await siteState(made.watch), `${where}: declined (or a dry run), yet written`).toEqual(before);
        if (!made.names) continue;
        // Asked and declined (or a dry run): the site is as it was, so the names form meets the same state; ran: fresh fixtures.
        const again = byIds.asked !== undefined || name === 'invoke' ? made : await fixture.make();
        const namesBefore = again === made ? before : await siteState(again.watch);
        const byNames = await surface.call(tool, again.names as Record<string, unknown>);
        expect(byNames.asked !== undefined, `${where}: with ids ${byIds.asked === undefined ? 'no question' : 'a question'}, with names ${byNames.asked === undefined ? 'none' : 'one'}:\n${byNames.answer.slice(0, 600)}`).toBe(byIds.asked !== undefined);
        if (byIds.asked !== undefined) expect(byNames.asked, `${where}: another question`).toBe(byIds.asked);
        if (byNames.asked !== undefined || name === 'invoke') expect(await siteState(again.watch), `${where}: declined (or a dry run), yet written`).toEqual(namesBefore);
        if (name === 'invoke') expect(byNames.answer, `${where}: another dry run`).toBe(byIds.answer);
      }
    },
    timeout,
  );
});
