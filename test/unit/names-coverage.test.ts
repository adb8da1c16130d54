import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyToolDefinition, tools } from '../../src/call/index.js';
import { IDS_ONLY, nameKind } from '../../src/call/names.js';

/**
 * #60.4: every id param that names a user or a term takes a name (a login, an email, a slug).
 * Over the whole registry (network forms included): every number param (or list of numbers) is
 * either one names.ts looks names up for, or in IDS_ONLY with the reason it takes numbers only.
 * A new tool's new id param fails here until names.ts says which it is.
 */
const forms = tools.flatMap((tool) => (tool.onNetwork ? [tool, tool.onNetwork as AnyToolDefinition] : [tool]));

function numberParams(tool: AnyToolDefinition): string[] {
  const shape = tool.schema.shape as Record<string, z.ZodType>;
  return Object.keys(shape).filter((key) => {
    const json = JSON.stringify(z.toJSONSchema(shape[key] as z.ZodType, { unrepresentable: 'any' }));
    return /"type":"(integer|number)"/.test(json);
  });
}

describe('names where ids go, over the whole registry', () => {
  const all = forms.flatMap((tool) => numberParams(tool).map((key) => ({ tool, key })));

  it('every number param takes a name or says why it takes ids only', () => {
    // A call names its taxonomy (`taxonomy`, migrate-terms' `from_taxonomy`): any will do here.
    const uncovered = all
      .filter(({ tool, key }) => !nameKind(tool, key, { taxonomy: 'post_tag', from_taxonomy: 'post_tag' }) && !(key in IDS_ONLY))
      .map(({ tool, key }) => `${tool.name}.${key}`);
    expect(uncovered, 'add the param to names.ts (USER_PARAMS, TERM_PARAMS …) or to IDS_ONLY with why').toEqual([]);
    expect(all.length).toBeGreaterThan(40);
  });

  it('every IDS_ONLY entry is a param some tool has', () => {
    const used = new Set(all.map(({ key }) => key));
    expect(Object.keys(IDS_ONLY).filter((key) => !used.has(key))).toEqual([]);
  });

  it('the params #60.4 names take names: migrate-terms term_ids, set-users-role user_ids, network tools’ user_id among the network’s accounts', () => {
    const find = (name: string, network = false) => forms.find((t) => t.name === name && Boolean(t.network || t.networkWide === true) === network)!;
    expect(nameKind(find('migrate-terms'), 'term_ids', { from_taxonomy: 'category' })).toEqual({ taxonomy: 'category' });
    expect(nameKind(find('set-users-role'), 'user_ids', {})).toEqual({ user: true });
    expect(nameKind(find('add-user-to-site', true), 'user_id', {})).toEqual({ user: true, network: true });
    expect(nameKind(find('delete-user', true), 'reassign_to', {})).toEqual({ user: true, network: true });
    expect(nameKind(find('prune-terms'), 'exclude_ids', { taxonomy: 'post_tag' })).toEqual({ taxonomy: 'post_tag' });
  });
});
