import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { checkCall, selectTools, tools } from '../../src/call/index.js';

const NETWORK_TOOLS = ['add-user-to-site', 'remove-user-from-site', 'grant-super-admin', 'revoke-super-admin'];
const keys = (schema: z.ZodObject) => Object.keys(schema.shape).sort();

describe('network tools appear only on a network', () => {
  it('a single site keeps its tool list and the schemas of list-users and delete-user', () => {
    const single = selectTools(tools);
    expect(single.map((t) => t.name)).not.toEqual(expect.arrayContaining(NETWORK_TOOLS));
    for (const name of NETWORK_TOOLS) expect(single.some((t) => t.name === name)).toBe(false);
    const listUsers = single.find((t) => t.name === 'list-users');
    expect(keys(listUsers?.schema as z.ZodObject)).not.toContain('network');
    expect(keys(single.find((t) => t.name === 'delete-user')?.schema as z.ZodObject)).toContain('delete_content');
  });

  it('a network adds the four tools and the network forms of list-users and delete-user', () => {
    const network = selectTools(tools, { network: true });
    for (const name of NETWORK_TOOLS) expect(network.some((t) => t.name === name)).toBe(true);
    expect(keys(network.find((t) => t.name === 'list-users')?.schema as z.ZodObject)).toContain('network');
    expect(keys(network.find((t) => t.name === 'delete-user')?.schema as z.ZodObject)).not.toContain('delete_content');
    expect(network).toHaveLength(selectTools(tools).length + NETWORK_TOOLS.length);
  });

  it('a session that has not asked the site (invoke) resolves network calls; one that knows it is a single site refuses them', () => {
    expect(checkCall({ tool: 'grant-super-admin', params: { user_id: 2 } }).ok).toBe(true);
    const single = checkCall({ tool: 'grant-super-admin', params: { user_id: 2 } }, { network: false });
    expect(single).toMatchObject({ ok: false, error: { code: 'tool_not_allowed' } });
  });
});
