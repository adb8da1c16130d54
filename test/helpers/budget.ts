/**
 * Test budgets (issue #53): how much of its work a test whose cost is a count does. One switch,
 * `CMS_TEST_BUDGET=quick|full`: `npm test` runs quick (the default), `.ci/run` exports full for
 * every leg. A budget changes counts only — the same files, the same test names (never a count in
 * one: test/unit/test-budgets.test.ts lists them under both budgets and compares) and the same
 * assertions. Every count a budgeted test uses comes from `BUDGETS` below; docs/testing.md has
 * the table (the same test checks it).
 *
 * The run's random seed: global setup (test/run-tmp.ts) draws one when `CMS_TEST_SEED` is not set,
 * prints it, and every worker inherits it; `CMS_TEST_SEED=<n>` replays a run.
 */

export type Budget = 'quick' | 'full';

/** One budget: its count under each, and what is counted. */
export interface BudgetEntry {
  /** The test (or tests) that read it, as docs/testing.md's table names them. */
  test: string;
  /** What the count counts, plural ("calls per session"). */
  unit: string;
  quick: number;
  full: number;
  /** Why the quick count still catches what the full one exists for. */
  why: string;
}

/** The fixed seeds of the undo property: the plugin path's and the core REST path's. */
export interface UndoSeeds {
  plugin: number[];
  core: number[];
}

/**
 * The undo property's fixed seeds. Quick keeps seed 1, the one that found a bug (a deleted or
 * merged term came back without its registered meta, 3656c4f). Both budgets add the run's random
 * seed (`runSeed()`) on the core REST path (no companion plugin: post terms through /batch/v1
 * under the site lock), so every run covers that path with a new seed; full adds seeds 2–5 and
 * core seed 6 (the core path's first, cd2185d). A core seed costs about 2.5 plugin ones (its
 * batches: docs/testing.md).
 */
export const UNDO_SEEDS: Record<Budget, UndoSeeds> = {
  quick: { plugin: [1], core: [] },
  full: { plugin: [1, 2, 3, 4, 5], core: [6] },
};

/**
 * The privilege property's fixed seeds (#58). On the code before its fix seed 9 found finding 1 (a
 * role named `activate_plugins`, then set-user-role gave it unasked: the accomplice held
 * activate_plugins) and seeds 5 and 10 finding 2 (denials on the author role stripped an
 * administrator who also held it); quick keeps 9 and 5. Both budgets add the run's random seed.
 */
export const PRIVILEGE_SEEDS: Record<Budget, number[]> = {
  quick: [9, 5],
  full: [9, 5, 10, 1, 2, 3, 4, 6],
};

/** The privilege property's seeds under this run's budget (PRIVILEGE_SEEDS=a,b replaces the fixed ones), then the run's random one. */
export function privilegeRuns(env: NodeJS.ProcessEnv = process.env): Array<{ seed: number; random: boolean }> {
  const fixed = env.PRIVILEGE_SEEDS === undefined ? PRIVILEGE_SEEDS[testBudget(env)] : env.PRIVILEGE_SEEDS.split(',').filter(Boolean).map(Number);
  return [...fixed.map((seed) => ({ seed, random: false })), { seed: runSeed(env), random: true }];
}

/**
 * The undo property of the bulk term tools (#59, undo-property-terms-bulk.test.ts): quick keeps
 * seed 1, which found finding 1 on the code before its fix (a migration deleted the category a
 * second writer had just given a post); full adds seed 2 and the run's random seed.
 */
export const TERMS_BULK_SEEDS: Record<Budget, number[]> = { quick: [1], full: [1, 2] };

/**
 * The accounts undo property's fixed seeds (accounts-undo-property.test.ts, #59): quick keeps
 * seed 9, whose first race failed on the code before #59.9 (set-users-role overwrote a role
 * another administrator had just given); full adds three.
 */
export const ACCOUNTS_SEEDS: Record<Budget, number[]> = { quick: [9], full: [9, 10, 11, 12] };

/** The fuzz test's properties, each with its runs under the full budget (fuzz.test.ts). */
export const FUZZ_RUNS = {
  garbage: 1_500,
  'tool names': 2_000,
  'params not an object': 600,
  'envelope members': 500,
  'params that break the schema': 5_000,
  'JSON text': 1_000,
  'read-only writes': 400,
  'calls that reach WordPress': 300,
} as const;

/** Quick runs of fuzz: this share of each property's runs (at least one). */
const FUZZ_QUICK_SHARE = 5;

const fuzzTotal = Object.values(FUZZ_RUNS).reduce((a, b) => a + b, 0);

export const BUDGETS = {
  undoProperty: {
    test: 'test/reliability/undo-property*.test.ts',
    unit: 'seeds',
    quick: UNDO_SEEDS.quick.plugin.length + UNDO_SEEDS.quick.core.length + 1,
    full: UNDO_SEEDS.full.plugin.length + UNDO_SEEDS.full.core.length + 1,
    why: 'seed 1, which found a bug, and a new random seed every run on the core REST path',
  },
  undoPropertyTermsBulk: {
    test: 'test/reliability/undo-property-terms-bulk.test.ts',
    unit: 'seeds',
    quick: TERMS_BULK_SEEDS.quick.length,
    full: TERMS_BULK_SEEDS.full.length + 1,
    why: 'seed 1, which found finding 1 of #59 (a migration took a category off a post a second writer had just given it): every bulk term tool twice, raced',
  },
  accountsProperty: {
    test: 'test/reliability/accounts-undo-property.test.ts',
    unit: 'seeds',
    quick: ACCOUNTS_SEEDS.quick.length,
    full: ACCOUNTS_SEEDS.full.length,
    why: 'seed 9, whose first race failed before #59.9 (set-users-role overwrote another administrator’s role), with every bulk account tool racing and the undo of all',
  },
  oauthLoad: {
    test: 'test/cli/mcp-http-oauth-load.test.ts',
    unit: 'calls per session',
    quick: 5,
    full: 20,
    why: 'the same 50 sessions at once, each calling every kind of tool (a write, a refused read, reads)',
  },
  fuzz: {
    test: 'test/reliability/fuzz.test.ts',
    unit: 'envelopes',
    quick: Object.values(FUZZ_RUNS).reduce((a, n) => a + Math.max(1, Math.ceil(n / FUZZ_QUICK_SHARE)), 0),
    full: fuzzTotal,
    why: 'every property, a fifth of its runs each, from the run seed (a new one every run)',
  },
  bulkPosts: {
    test: 'test/wordpress/taxonomy/bulk-answers.test.ts',
    unit: 'posts',
    quick: 300,
    full: 1_000,
    why: 'still three pages of posts and 60 unknown ids, so the answer still has to cap its failures and fold its ids into ranges',
  },
  privilegeProperty: {
    test: 'test/reliability/privilege-property.test.ts',
    unit: 'sequences of role and account writes',
    quick: PRIVILEGE_SEEDS.quick.length + 1,
    full: PRIVILEGE_SEEDS.full.length + 1,
    why: 'the seeds that found findings 1 and 2 of #58 on the code before its fix, and a new random seed every run',
  },
  surfaceProperty: {
    test: 'test/reliability/surface-property*.test.ts',
    unit: 'write tools per surface',
    quick: 2,
    // More than the registry's write tools: every one, on every surface.
    full: 1_000,
    why: 'two write tools on each of the eleven surfaces, a new sample from the run seed every run (SURFACE_TOOLS=a,b replays tools)',
  },
  evalCases: {
    test: 'test/evals/scripted-suite.test.ts',
    unit: 'single-site eval cases replayed',
    quick: 24,
    // More than there are: every case.
    full: 1_000,
    why: 'every category at least once and a new sample from the run seed every run (CMS_TEST_SEED replays it); `npm run eval -- --model scripted` replays them all',
  },
  cleanupMess: {
    test: 'test/wordpress/cleanup/prune-terms.test.ts',
    unit: 'tags seeded',
    quick: 500,
    full: 1_000,
    why: "the issue's mess (#51): 300 of 500 tags used by nothing or only by drafts, so a prune spans requests of 500 and its undo recreates hundreds of terms with their posts",
  },
  duplicateSite: {
    test: 'test/wordpress/cleanup/duplicate-terms.test.ts',
    unit: 'tags seeded',
    quick: 3_000,
    full: 25_000,
    why: 'still six times the 500 terms the old code read a request, so one request a page against one a 500 terms shows, and several pages of groups to follow',
  },
} as const satisfies Record<string, BudgetEntry>;

export type BudgetName = keyof typeof BUDGETS;

/** The budget this run uses: `CMS_TEST_BUDGET`, quick when unset. */
export function testBudget(env: NodeJS.ProcessEnv = process.env): Budget {
  const raw = env.CMS_TEST_BUDGET;
  if (raw === undefined || raw === '') return 'quick';
  if (raw === 'quick' || raw === 'full') return raw;
  throw new Error(`CMS_TEST_BUDGET=${raw}: expected quick or full (npm test runs quick, .ci/run full)`);
}

/** The run's random seed: `CMS_TEST_SEED` (global setup sets it when unset), else a new one. */
export function runSeed(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CMS_TEST_SEED;
  if (raw === undefined || raw === '') return newSeed();
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed >= 2 ** 31)
    throw new Error(`CMS_TEST_SEED=${raw}: expected an integer 0 … 2147483647 (the seed a run printed)`);
  return seed;
}

/** A new random seed (31 bits, as fast-check takes). */
export function newSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

const printed = new Set<string>();

/** Prints a budget line once per worker process ("undo property: 3 of 7 seeds (quick budget)"). */
export function printBudget(line: string): void {
  if (printed.has(line)) return;
  printed.add(line);
  console.log(line);
}

/** The count of budget `name` under this run's budget, printed once: "<what>: 5 of 20 calls per session (quick budget)". */
export function budgetCount(name: BudgetName, what: string, env: NodeJS.ProcessEnv = process.env): number {
  const budget = testBudget(env);
  const entry: BudgetEntry = BUDGETS[name];
  const count = entry[budget];
  printBudget(
    `${what}: ${count.toLocaleString('en')} of ${entry.full.toLocaleString('en')} ${entry.unit} (${budget} budget)`,
  );
  return count;
}

/** A fuzz property's runs under this run's budget (a fifth, at least one, when quick). */
export function fuzzRuns(property: keyof typeof FUZZ_RUNS, env: NodeJS.ProcessEnv = process.env): number {
  const full = FUZZ_RUNS[property];
  return testBudget(env) === 'full' ? full : Math.max(1, Math.ceil(full / FUZZ_QUICK_SHARE));
}

/**
 * The bulk term tools' undo property's seeds under this run's budget (TERMS_BULK_SEEDS replaces
 * the fixed ones, comma-separated); full adds the run's random seed.
 */
export function termsBulkRuns(env: NodeJS.ProcessEnv = process.env): number[] {
  const budget = testBudget(env);
  const fixed = env.TERMS_BULK_SEEDS === undefined ? TERMS_BULK_SEEDS[budget] : env.TERMS_BULK_SEEDS.split(',').filter(Boolean).map(Number);
  return budget === 'full' && env.TERMS_BULK_SEEDS === undefined ? [...fixed, runSeed(env)] : fixed;
}

/** One run of the undo property: a seed and its path. */
export interface UndoRun {
  seed: number;
  core: boolean;
  random: boolean;
}

/**
 * The undo property's runs under this run's budget: the fixed seeds (UNDO_SEEDS and UNDO_CORE_SEEDS
 * replace them, comma-separated, for both budgets), then the run's random seed, on the core path.
 */
export function undoRuns(env: NodeJS.ProcessEnv = process.env): UndoRun[] {
  const budget = testBudget(env);
  const list = (raw: string | undefined, fallback: number[]) =>
    raw === undefined ? fallback : raw.split(',').filter(Boolean).map(Number);
  const fixed = UNDO_SEEDS[budget];
  const random = runSeed(env);
  return [
    ...list(env.UNDO_SEEDS, fixed.plugin).map((seed) => ({ seed, core: false, random: false })),
    ...list(env.UNDO_CORE_SEEDS, fixed.core).map((seed) => ({ seed, core: true, random: false })),
    { seed: random, core: true, random: true },
  ];
}

/** The accounts undo property's seeds under this run's budget (ACCOUNTS_SEEDS=9,10 replaces them). */
export function accountsPropertySeeds(env: NodeJS.ProcessEnv = process.env): number[] {
  const raw = env.ACCOUNTS_SEEDS;
  return raw ? raw.split(',').filter(Boolean).map(Number) : ACCOUNTS_SEEDS[testBudget(env)];
}
