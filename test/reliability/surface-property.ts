import { afterAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/call/index.js';
import { budgetCount, printBudget, runSeed, testBudget } from '../helpers/budget.js';
import { recordSecret } from '../helpers/output-log.js';
import { SURFACE_FIXTURES } from '../helpers/surface-fixtures.js';
import { siteState } from '../helpers/surface-state.js';
import { siteTarget, type Surface, SURFACES, type SurfaceName, type Target } from '../helpers/surfaces.js';
import { testNetwork } from '../helpers/network.js';
import { wpPhp } from '../wordpress/users/helpers.js';
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

/** The tools one surface runs this time: every one (full), or a sample drawn from the seed and the surface's name. */
function toolsFor(surface: string): string[] {
  if (forced) return forced;
  let state = [...surface].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, seed) || 1;
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0);
  const shuffled = writes.map((name) => ({ name, key: next() })).sort((a, b) => a.key - b.key);
  return shuffled.slice(0, perSurface).map((s) => s.name);
}

type Where = { target: Target; php: (code: string) => Promise<string> };
const site: Where = { target: siteTarget(), php: wpPhp };
/** The test network, brought up (and reset) the first time a network tool is drawn. */
let network: Promise<Where> | undefined;
const onNetwork = () =>
  (network ??= testNetwork().then((net) => ({
    target: { env: { CMS_URL: net.url, CMS_USERNAME: net.username, CMS_APP_PASSWORD: net.appPassword }, context: () => net.context(), network: true },
    php: net.php,
  })));

const started: Surface[] = [];

const timeout = testBudget() === 'full' ? 3_600_000 : 600_000;

/**
 * The surfaces, in groups: one file per group (surface-property*.test.ts calls
 * `describeSurfaceProperty('<group>')`; test/unit/surface-fixtures.test.ts checks each group has
 * its file), so a run's workers share the full budget's pairs instead of one worker taking them all.
 */
export const SURFACE_GROUPS = {
  calls: ['invoke', 'toolkit', 'interrupt', 'hitl', 'chat'],
  shell: ['shell', 'shell-terminal'],
  mcp: ['mcp-stdio-2025', 'mcp-stdio-2026', 'mcp-http-2025', 'mcp-http-2026'],
} as const satisfies Record<string, readonly SurfaceName[]>;

// A surface added to SURFACES and to no group would go unchecked: refused here, at load.
const grouped = new Set<string>(Object.values(SURFACE_GROUPS).flat());
const ungrouped = Object.keys(SURFACES).filter((name) => !grouped.has(name));
if (ungrouped.length) throw new Error(`surfaces in no group of SURFACE_GROUPS (test/reliability/surface-property.ts): ${ungrouped.join(', ')}`);

/** The property on one group's surfaces. */
export function describeSurfaceProperty(group: keyof typeof SURFACE_GROUPS): void {
  const names: SurfaceName[] = [...SURFACE_GROUPS[group]];
  printBudget(`surface property (${names.join(', ')}): seed ${seed} (CMS_TEST_SEED=${seed} replays it)`);
  afterAll(async () => {
    for (const surface of started) await surface.stop?.();
    await stopRemoteSurfaces();
  });
describe('a call given with ids and with names, on every surface', () => {
  it.each(names)(
    '%s: the same question (or none) for both forms; declined, nothing is written',
    async (name) => {
      // One of this surface a site: the suite's, and the test network's for the network tools.
      const surfaces = new Map<Where, Surface>();
      const surfaceOn = async (on: Where) => {
        let surface = surfaces.get(on);
        if (!surface) {
          surface = await SURFACES[name](on.target);
          surfaces.set(on, surface);
          started.push(surface);
        }
        return surface;
      };
      for (const tool of toolsFor(name)) {
        const fixture = SURFACE_FIXTURES[tool];
        if (!fixture) throw new Error(`no surface fixture for ${tool} (test/helpers/surface-fixtures-*.ts)`);
        const on = fixture.network ? await onNetwork() : site;
        const surface = await surfaceOn(on);
        const stateThere = (watch: Parameters<typeof siteState>[0]) => siteState(watch, on.php);
        const where = `${name} × ${tool} (replay: CMS_TEST_SEED=${seed} SURFACE_TOOLS=${tool})`;
        const made = await fixture.make(on.php);
        for (const secret of made.secrets ?? []) recordSecret(secret);
        const before = await stateThere(made.watch);
        const byIds = await surface.call(tool, made.ids);
        if (fixture.asks && name !== 'invoke') expect(byIds.asked, `${where}: this call asks a person, and was not asked about:\n${byIds.answer.slice(0, 600)}`).toBeDefined();
        if (byIds.asked !== undefined || name === 'invoke') expect(await stateThere(made.watch), `${where}: declined (or a dry run), yet written`).toEqual(before);
        if (!made.names) continue;
        // Asked and declined (or a dry run): the site is as it was, so the names form meets the same state; ran: fresh fixtures.
        const again = byIds.asked !== undefined || name === 'invoke' ? made : await fixture.make(on.php);
        const namesBefore = again === made ? before : await stateThere(again.watch);
        const byNames = await surface.call(tool, again.names as Record<string, unknown>);
        expect(byNames.asked !== undefined, `${where}: with ids ${byIds.asked === undefined ? 'no question' : 'a question'}, with names ${byNames.asked === undefined ? 'none' : 'one'}:\n${byNames.answer.slice(0, 600)}`).toBe(byIds.asked !== undefined);
        if (byIds.asked !== undefined) expect(byNames.asked, `${where}: another question`).toBe(byIds.asked);
        if (byNames.asked !== undefined || name === 'invoke') expect(await stateThere(again.watch), `${where}: declined (or a dry run), yet written`).toEqual(namesBefore);
        if (name === 'invoke') expect(byNames.answer, `${where}: another dry run`).toBe(byIds.answer);
      }
    },
    timeout,
  );
});
}
