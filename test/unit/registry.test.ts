import { describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/client/index.js';
import { describeTool } from '../../src/adapters/json-schema.js';
import { AbilitiesToolkit, ChangesToolkit, TaxonomyToolkit, UserToolkit } from '../../src/toolkits.js';
import { tools } from '../../src/call/index.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { SELF_DESCRIBING_PARAMS } from '../../src/tools/schema.js';

const TAXONOMY_TOOLS = [
  'get-cms-categories',
  'get-cms-tags',
  'create-category',
  'create-tag',
  'update-category',
  'update-tag',
  'delete-category',
  'delete-tag',
  'merge-categories',
  'assign-categories-to-posts',
  'assign-tags-to-posts',
  'list-taxonomies',
  'list-terms',
  'create-term',
  'update-term',
  'delete-term',
  'find-posts',
  'assign-terms-to-posts',
  'remove-terms-from-posts',
  'merge-terms',
  // taxonomy clean-up (#51)
  'prune-terms',
  'find-duplicate-terms',
  'recount-terms',
  'set-terms-parent',
  'migrate-terms',
];
const USER_TOOLS = [
  'list-users',
  'create-user',
  'update-user',
  'disable-user',
  'enable-user',
  'reset-user-password',
  'set-user-role',
  'set-users-role',
  'import-users',
  'list-user-roles',
  'delete-user',
  'list-app-passwords',
  'revoke-app-passwords',
  'list-user-sessions',
  'log-out-user',
  // roles and capabilities (#50)
  'create-role',
  'update-role',
  'delete-role',
  'find-users-with-capability',
  'update-user-capabilities',
];
/** The change journal's tools (issue #24): ChangesToolkit's (#52.13: not in both toolkits). */
const CHANGE_TOOLS = ['list-changes', 'undo-change'];
/** The site's own WordPress abilities (issue #62): AbilitiesToolkit's. */
const ABILITY_TOOLS = ['find-abilities', 'describe-ability', 'run-ability'];

// A client that is never called: building toolkits must not touch the network.
const client = new WordPressClient({ url: 'http://127.0.0.1:9', username: 'x', appPassword: 'y' });
const context = { client, journal: memoryJournal() };

describe('registry', () => {
  it('holds exactly the spec’s tools plus enable-user, the change tools, the network tools, list-sites and the ability tools, each once', () => {
    const network = ['add-user-to-site', 'remove-user-from-site', 'grant-super-admin', 'revoke-super-admin'];
    const fleet = ['list-sites'];
    expect(tools.map((t) => t.name).sort()).toEqual([...TAXONOMY_TOOLS, ...USER_TOOLS, ...CHANGE_TOOLS, ...network, ...fleet, ...ABILITY_TOOLS].sort());
  });

  it('TaxonomyToolkit, UserToolkit and ChangesToolkit give exactly their tools', () => {
    const names = (toolkit: TaxonomyToolkit | UserToolkit | ChangesToolkit) => toolkit.getTools().map((t) => t.name).sort();
    // Every toolset of each (toolsets: 'all'): taxonomy and taxonomy-cleanup; users, roles, accounts-bulk (one site: no network).
    expect(names(new TaxonomyToolkit({ context, toolsets: 'all' }))).toEqual([...TAXONOMY_TOOLS].sort());
    expect(names(new UserToolkit({ context, toolsets: 'all' }))).toEqual([...USER_TOOLS].sort());
    expect(names(new ChangesToolkit({ context }))).toEqual([...CHANGE_TOOLS].sort());
    // Not in the default set of a session, but what AbilitiesToolkit is asked for.
    expect(names(new AbilitiesToolkit({ context }))).toEqual([...ABILITY_TOOLS].sort());
  });

  it('without a change journal the toolkits leave out the change tools (they could only say nothing is recorded)', () => {
    const names = (toolkit: ChangesToolkit) => toolkit.getTools().map((t) => t.name).sort();
    expect(names(new ChangesToolkit({ context: { client } }))).toEqual([]);
    const site = { url: 'http://127.0.0.1:9', username: 'x', appPassword: 'y' };
    expect(names(new ChangesToolkit({ site, journal: 'off' }))).toEqual([]);
    expect(names(new ChangesToolkit({ site, journal: memoryJournal() }))).toEqual([...CHANGE_TOOLS].sort());
  });

  it('read-only toolkits keep only read-only tools', () => {
    const names = new TaxonomyToolkit({ context, readOnly: true, toolsets: 'all' })
      .getTools()
      .map((t) => t.name)
      .sort();
    expect(names).toEqual([
      'find-duplicate-terms',
      'find-posts',
      'get-cms-categories',
      'get-cms-tags',
      'list-taxonomies',
      'list-terms',
    ]);
  });

  it('every write tool takes dry_run (one central param, answered by a preview), no read tool does', () => {
    for (const tool of tools) {
      const shape = tool.schema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
      expect('dry_run' in shape, tool.name).toBe(!tool.annotations.readOnly);
      if (!tool.annotations.readOnly) expect(shape.dry_run!.safeParse(true).success, tool.name).toBe(true);
    }
  });

  it.each(tools.map((t) => [t.name, t] as const))(
    '%s rejects unknown params and documents every param',
    (_name, tool) => {
      expect(tool.schema.safeParse({ not_a_param: 1 }).success).toBe(false);
      // Names that say what they are go without a description (src/tools/schema.ts); all else is described.
      for (const [key, field] of Object.entries(tool.schema.shape)) {
        if (!SELF_DESCRIBING_PARAMS.has(key))
          expect(field.description, `${tool.name}.${key} needs .describe()`).toBeTruthy();
      }
      const { readOnly, destructive } = tool.annotations;
      expect(readOnly && destructive).toBe(false);
    },
  );

  it('every tool that may ask for approval (it has a review) is annotated destructive, for MCP clients (docs/safety.md)', () => {
    const mayAsk = tools.filter((tool) => tool.review);
    expect(mayAsk.map((t) => t.name)).toContain('add-user-to-site');
    for (const tool of mayAsk) expect(tool.annotations.destructive, tool.name).toBe(true);
  });

  it.each(tools.map((t) => [t.name, t] as const))('%s schema snapshot', async (name, tool) => {
    await expect(`${JSON.stringify(describeTool(tool), null, 2)}\n`).toMatchFileSnapshot(
      `__snapshots__/tools/${name}.json`,
    );
  });
});
