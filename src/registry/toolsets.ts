import type { AnyToolDefinition } from '../tools/define-tool.js';

/**
 * Toolsets (issue #51): the tools grouped, as data, so a session sends the model only the
 * schemas it needs (each costs tokens on every request). A session starts with DEFAULT_TOOLSETS
 * (`network` counts only on a multisite network for a super admin, `fleet` only with several
 * sites: select.ts' network and fleet flags decide) and the model adds one with enable-toolset.
 */
export const TOOLSETS = {
  taxonomy: 'categories, tags, terms, posts’ terms',
  'taxonomy-cleanup': 'prune, dedupe, migrate, recount terms',
  users: 'accounts, passwords, sessions',
  roles: 'roles and capabilities',
  'accounts-bulk': 'many accounts at once',
  network: 'multisite network accounts',
  changes: 'list and undo changes',
  fleet: 'sites of this session',
  abilities: 'site abilities',
} as const;

export type ToolsetName = keyof typeof TOOLSETS;

export const TOOLSET_NAMES = Object.keys(TOOLSETS) as ToolsetName[];

/** What a session gets unless it names its toolsets: everyday work (network and fleet by the session's shape). */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['taxonomy', 'users', 'changes', 'network', 'fleet'];

/**
 * Each registered tool's toolset, one line a tool (test/unit/toolsets.test.ts: every registered
 * tool has exactly one, every name here is registered). A new tool adds its line here.
 */
export const TOOLSET_OF: Readonly<Record<string, ToolsetName>> = {
  'get-cms-categories': 'taxonomy',
  'get-cms-tags': 'taxonomy',
  'create-category': 'taxonomy',
  'create-tag': 'taxonomy',
  'update-category': 'taxonomy',
  'update-tag': 'taxonomy',
  'delete-category': 'taxonomy',
  'delete-tag': 'taxonomy',
  'merge-categories': 'taxonomy',
  'assign-categories-to-posts': 'taxonomy',
  'assign-tags-to-posts': 'taxonomy',
  'list-taxonomies': 'taxonomy',
  'list-terms': 'taxonomy',
  'create-term': 'taxonomy',
  'update-term': 'taxonomy',
  'delete-term': 'taxonomy',
  'find-posts': 'taxonomy',
  'assign-terms-to-posts': 'taxonomy',
  'remove-terms-from-posts': 'taxonomy',
  'merge-terms': 'taxonomy',
  'prune-terms': 'taxonomy-cleanup',
  'find-duplicate-terms': 'taxonomy-cleanup',
  'migrate-terms': 'taxonomy-cleanup',
  'recount-terms': 'taxonomy-cleanup',
  'set-terms-parent': 'taxonomy-cleanup',
  'list-users': 'users',
  'create-user': 'users',
  'update-user': 'users',
  'disable-user': 'users',
  'enable-user': 'users',
  'reset-user-password': 'users',
  'set-user-role': 'users',
  'list-user-roles': 'users',
  'delete-user': 'users',
  'list-app-passwords': 'users',
  'revoke-app-passwords': 'users',
  'list-user-sessions': 'users',
  'log-out-user': 'users',
  'create-role': 'roles',
  'update-role': 'roles',
  'delete-role': 'roles',
  'find-users-with-capability': 'roles',
  'update-user-capabilities': 'roles',
  'set-users-role': 'accounts-bulk',
  'import-users': 'accounts-bulk',
  'add-user-to-site': 'network',
  'remove-user-from-site': 'network',
  'grant-super-admin': 'network',
  'revoke-super-admin': 'network',
  'list-sites': 'fleet',
  'list-changes': 'changes',
  'undo-change': 'changes',
  'find-abilities': 'abilities',
  'describe-ability': 'abilities',
  'run-ability': 'abilities',
};

export function toolsetOf(tool: Pick<AnyToolDefinition, 'name'>): ToolsetName | undefined {
  return TOOLSET_OF[tool.name];
}

/** The tools of one toolset among `all`. */
export function toolsOfToolset(all: readonly AnyToolDefinition[], name: ToolsetName): AnyToolDefinition[] {
  return all.filter((tool) => TOOLSET_OF[tool.name] === name);
}

/**
 * `--toolsets` / `toolsets`: undefined → the default set; `'all'` or ['all'] → every toolset;
 * names, comma-separated or a list. An unknown name throws, naming the toolsets there are.
 */
export function resolveToolsets(spec: string | readonly string[] | undefined): ToolsetName[] {
  if (spec === undefined) return [...DEFAULT_TOOLSETS];
  const names = (typeof spec === 'string' ? spec.split(',') : spec).map((s) => s.trim()).filter(Boolean);
  if (names.includes('all')) return [...TOOLSET_NAMES];
  const unknown = names.filter((name) => !(name in TOOLSETS));
  if (unknown.length || !names.length) {
    const what = unknown.length ? `Unknown toolset(s) ${unknown.map((n) => `"${n}"`).join(', ')}` : 'No toolset named';
    throw new Error(`${what}: use all, or some of ${TOOLSET_NAMES.join(', ')}.`);
  }
  return [...new Set(names as ToolsetName[])];
}
