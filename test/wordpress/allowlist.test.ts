import { describe, expect, it } from 'vitest';
import { invoke } from '../../src/call/envelope.js';
import { TaxonomyToolkit, UserToolkit } from '../../src/toolkits.js';
import { recordOutput } from '../helpers/output-log.js';
import { testContext, testSite, unique, wp } from '../helpers/site.js';

// Least privilege in the library (#28): an allowlist of several tools. The envelope threw
// "Unknown tool name(s) in allowlist" for every call once the list named a second tool.
const allowlists = [
  ['get-cms-tags', 'list-users'],
  ['get-cms-tags', 'list-users', 'list-taxonomies'],
];

describe.each(allowlists.map((allow) => [allow.length, allow] as const))('an allowlist of %i tools', (_, allow) => {
  it('invoke(envelope, context, { allow }): each allowed tool answers from the site, another is tool_not_allowed', async () => {
    for (const tool of allow) {
      const outcome = await invoke({ tool }, testContext(), { allow });
      recordOutput(JSON.stringify(outcome));
      expect(outcome.ok, `${tool}: ${JSON.stringify(outcome)}`).toBe(true);
    }
    const name = unique('Library not allowed');
    const refused = await invoke({ tool: 'create-tag', params: { name } }, testContext(), { allow });
    expect(refused).toMatchObject({ ok: false, error: { code: 'tool_not_allowed' } });
    expect(await wp().get<unknown[]>('/wp/v2/tags', { search: name })).toEqual([]);
  });

  it('the toolkits give exactly the allowed tools of their kind', () => {
    const site = testSite();
    const names = [
      ...new TaxonomyToolkit({ site, allow }).getTools(),
      ...new UserToolkit({ site, allow }).getTools(),
    ].map((t) => t.name);
    expect([...new Set(names)].sort()).toEqual([...allow].sort());
  });
});
