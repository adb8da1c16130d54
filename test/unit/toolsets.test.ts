import { describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/client/index.js';
import {
  DEFAULT_TOOLSETS,
  resolveToolsets,
  selectTools,
  TOOLSET_NAMES,
  TOOLSET_OF,
  tools,
  ToolsetSession,
} from '../../src/call/index.js';
import { ChangesToolkit, TaxonomyToolkit, TOOLKIT_TOOLSETS, UserToolkit } from '../../src/toolkits.js';
import { memoryJournal } from '../../src/undo/journal.js';

// A client that is never called: building toolkits must not touch the network.
const client = new WordPressClient({ url: 'http://127.0.0.1:9', username: 'x', appPassword: 'y' });
const context = { client, journal: memoryJournal() };
const names = (list: readonly { name: string }[]) => list.map((t) => t.name).sort();
/** Every toolset but these: a session that lacks exactly them, whatever other toolsets hold. */
const allBut = (...left: string[]) => TOOLSET_NAMES.filter((name) => !left.includes(name));

describe('toolsets (issue #51): the data', () => {
  it('every registered tool is in exactly one toolset, and the toolsets name only registered tools', () => {
    const missing = tools.filter((tool) => !(tool.name in TOOLSET_OF)).map((tool) => tool.name);
    expect(missing, 'add a line to TOOLSET_OF in src/registry/toolsets.ts for each').toEqual([]);
    const unregistered = Object.keys(TOOLSET_OF).filter((name) => !tools.some((tool) => tool.name === name));
    expect(unregistered).toEqual([]);
    for (const toolset of Object.values(TOOLSET_OF)) expect(TOOLSET_NAMES).toContain(toolset);
  });

  it('every toolset belongs to exactly one toolkit class', () => {
    const held = Object.values(TOOLKIT_TOOLSETS).flat();
    expect([...held].sort()).toEqual([...TOOLSET_NAMES].sort());
  });

  it('--toolsets: unset is the default set, all is every toolset, names are checked', () => {
    expect(resolveToolsets(undefined)).toEqual([...DEFAULT_TOOLSETS]);
    expect(resolveToolsets('all')).toEqual(TOOLSET_NAMES);
    expect(resolveToolsets(['all'])).toEqual(TOOLSET_NAMES);
    expect(resolveToolsets(' users, roles ,users')).toEqual(['users', 'roles']);
    expect(() => resolveToolsets('users,tags')).toThrow(/Unknown toolset\(s\) "tags": use all, or some of taxonomy, taxonomy-cleanup/);
    expect(() => resolveToolsets('')).toThrow(/No toolset named/);
  });

  it('selectTools keeps only the tools of the toolsets given; network and fleet still by the session’s shape', () => {
    expect(names(selectTools(tools, { toolsets: ['changes'] }))).toEqual(['list-changes', 'undo-change']);
    expect(names(selectTools(tools, { toolsets: ['network'] }))).toEqual([]);
    expect(names(selectTools(tools, { toolsets: ['network'], network: true }))).toEqual([
      'add-user-to-site',
      'grant-super-admin',
      'remove-user-from-site',
      'revoke-super-admin',
    ]);
    const everyday = selectTools(tools, { toolsets: resolveToolsets(undefined) });
    expect(everyday.every((tool) => ['taxonomy', 'users', 'changes'].includes(TOOLSET_OF[tool.name]!))).toBe(true);
  });
});

describe('a session’s toolsets and enable-toolset', () => {
  it('offers enable-toolset only while a toolset with tools here is not enabled, naming each in a few words', () => {
    // One site: network and fleet have no tools here, so they are never offered.
    const single = new ToolsetSession(tools, { toolsets: allBut('users', 'changes') });
    expect(single.offered()).toEqual(['users', 'changes']);
    const spec = single.enableTool()!;
    expect(spec.description).toBe(
      "Adds a toolset. Not enabled: users (accounts, passwords, sessions); changes (list and undo changes).",
    );
    expect(spec.inputSchema.properties.toolset.enum).toEqual(['users', 'changes']);
    expect(new ToolsetSession(tools, { toolsets: resolveToolsets('all') }).enableTool()).toBeUndefined();
    const network = new ToolsetSession(tools, { network: true, toolsets: allBut('network') });
    expect(network.offered()).toEqual(['network']);
    // On one site network and fleet are never offered.
    expect(new ToolsetSession(tools, { toolsets: allBut('network', 'fleet') }).enableTool()).toBeUndefined();
  });

  it('enabling a toolset adds its tools to the session; a second call changes nothing; bad names are said', () => {
    const session = new ToolsetSession(tools, { toolsets: allBut('users', 'changes') });
    const before = session.enabled;
    expect(before).toContain('taxonomy');
    expect(session.tools().some((tool) => tool.name === 'list-users')).toBe(false);
    const outcome = session.enable({ toolset: 'users' });
    const now = TOOLSET_NAMES.filter((name) => [...before, 'users'].includes(name));
    expect(outcome).toMatchObject({ ok: true, result: { enabled: 'users', toolsets: now } });
    expect(outcome.ok && [...outcome.result.tools].sort()).toEqual(names(selectTools(tools, { toolsets: ['users'] })));
    expect(session.tools().some((tool) => tool.name === 'list-users')).toBe(true);
    expect(session.filter.toolsets).toEqual(now);
    expect(session.enable({ toolset: 'users' })).toMatchObject({ ok: true, result: { toolsets: now } });
    expect(session.enable({ toolset: 'tags' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', hint: 'Not enabled: changes.' },
    });
    expect(session.enable({ toolset: 'network' })).toMatchObject({
      ok: false,
      error: { code: 'toolset_unavailable', message: expect.stringMatching(/not a multisite network/) },
    });
    expect(session.enable({ toolset: 'changes' }).ok).toBe(true);
    expect(session.enableTool()).toBeUndefined();
  });
});

describe('toolkits (#52.13): spread together, never a tool twice', () => {
  it('TaxonomyToolkit, UserToolkit and ChangesToolkit together give the default set, each tool once', () => {
    const all = [
      ...new TaxonomyToolkit({ context }).getTools(),
      ...new UserToolkit({ context }).getTools(),
      ...new ChangesToolkit({ context }).getTools(),
    ];
    expect(new Set(all.map((t) => t.name)).size).toBe(all.length);
    expect(names(all)).toEqual(names(selectTools(tools, { toolsets: resolveToolsets(undefined) })));
    expect(names(new ChangesToolkit({ context }).getTools())).toEqual(['list-changes', 'undo-change']);
  });

  it('with several sites list-sites comes once, from ChangesToolkit', () => {
    const sites = ['a', 'b'].map((name) => ({ name, url: 'http://127.0.0.1:9', username: 'x', appPassword: 'y' }));
    const all = [
      ...new TaxonomyToolkit({ sites, journal: 'off' }).getTools(),
      ...new UserToolkit({ sites, journal: 'off' }).getTools(),
      ...new ChangesToolkit({ sites, journal: 'off' }).getTools(),
    ];
    expect(all.filter((t) => t.name === 'list-sites')).toHaveLength(1);
    expect(new Set(all.map((t) => t.name)).size).toBe(all.length);
  });

  it('toolsets: within the toolkit’s own; another toolkit’s toolset is an error naming that toolkit', () => {
    expect(names(new UserToolkit({ context, network: true, toolsets: ['network'] }).getTools())).toEqual([
      'add-user-to-site',
      'grant-super-admin',
      'remove-user-from-site',
      'revoke-super-admin',
    ]);
    expect(() => new TaxonomyToolkit({ context, toolsets: ['users'] })).toThrow(
      /holds the toolsets taxonomy, taxonomy-cleanup; users: UserToolkit/,
    );
    const every = new TaxonomyToolkit({ context, toolsets: 'all' }).getTools();
    expect(every.every((tool) => ['taxonomy', 'taxonomy-cleanup'].includes(String((tool as { metadata?: { toolset?: string } }).metadata?.toolset)))).toBe(true);
  });
});
