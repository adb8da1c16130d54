import { Validator } from '@cfworker/json-schema';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { serveMcpHttp } from '../../src/mcp/http.js';
import { resolveToolsets, selectTools, tools } from '../../src/call/index.js';

// A single site's tools: the network tools are listed only on a multisite network (docs/multisite.md).
const registry = selectTools(tools, {});
// Every toolset (#51): each tool is listed and called here, not only the default set's.
const EVERY_TOOLSET = { toolsets: resolveToolsets('all') };
import { recordOutput, recordSecretsOf } from '../helpers/output-log.js';
import { makeUser, signIn } from '../helpers/mcp-oauth.js';
import { recordSecret } from '../helpers/output-log.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { memoryJournal } from '../../src/undo/journal.js';

/** A context whose writes are journalled, so list-changes and undo-change answer too. */
const journalled = () => createContext(testSite(), { journal: memoryJournal() });

/**
 * MCP structured output with the SDK's own client (which checks structuredContent against
 * the listed outputSchema itself): every tool lists an outputSchema, and a successful call
 * of every tool returns structuredContent valid under it, plus the same JSON as text. Run in
 * memory, over Streamable HTTP with the static token, and over Streamable HTTP signed in with
 * WordPress as an administrator (the i25 branch's idea, on main's mcp --http).
 */
// Approvals are not the subject here (test/cli/mcp-approvals.test.ts): every call is approved.
const approveAll = { approvals: { yes: true, approve: [] } };
type Connected = { client: Client; close(): Promise<void> };
const connectors: Array<{ name: string; connect(): Promise<Connected> }> = [
  {
    name: 'in memory',
    async connect() {
      const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(journalled(), EVERY_TOOLSET, approveAll).connect(serverSide);
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(clientSide);
      return { client, close: () => client.close() };
    },
  },
  {
    name: 'Streamable HTTP, static token',
    async connect() {
      const token = `structured-${process.pid}-${Date.now()}-token`;
      recordSecret(token);
      const server = await serveMcpHttp(journalled(), EVERY_TOOLSET, approveAll, { port: 0, token });
      const client = new Client({ name: 'test', version: '1.0.0' });
      const headers = { Authorization: `Bearer ${token}` };
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
      return {
        client,
        close: async () => {
          await client.close();
          await server.close();
        },
      };
    },
  },
  {
    name: 'Streamable HTTP, signed in with WordPress as an administrator',
    async connect() {
      const site = testSite();
      const journal = memoryJournal();
      const server = await serveMcpHttp(journalled(), EVERY_TOOLSET, approveAll, {
        port: 0,
        wordpress: {
          siteUrl: site.url,
          stateDir: mkdtempSync(path.join(tmpdir(), 'cms-structured-')),
          contextFor: (login) => createContext({ url: site.url, ...login }, { journal }),
        },
      });
      const { client } = await signIn(server.url, await makeUser('administrator'), 'Structured test');
      return {
        client,
        close: async () => {
          await client.close();
          await server.close();
        },
      };
    },
  },
];

describe.each(connectors)('MCP outputSchema and structuredContent ($name)', (connector) => {
  let client: Client;
  let close: () => Promise<void>;
  const schemas = new Map<string, Record<string, unknown>>();
  const seen = new Set<string>();

  beforeAll(async () => {
    ({ client, close } = await connector.connect());
    for (const tool of (await client.listTools()).tools)
      schemas.set(tool.name, tool.outputSchema as Record<string, unknown>);
  });
  afterAll(() => close());

  async function structured(name: string, args: Record<string, unknown> = {}): Promise<any> {
    recordSecretsOf(args);
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    recordOutput(text);
    expect(result.isError, `${name}: ${text}`).toBe(false);
    const validation = new Validator(schemas.get(name) as never, '2020-12', false).validate(result.structuredContent);
    expect(validation.errors, name).toEqual([]);
    expect(JSON.parse(text)).toEqual(result.structuredContent);
    seen.add(name);
    return result.structuredContent;
  }

  it('every tool lists an object outputSchema', () => {
    expect(schemas.size).toBe(registry.length);
    for (const [name, schema] of schemas) expect(schema?.type, name).toBe('object');
  });

  it('every tool’s successful call returns structuredContent valid under its outputSchema', async () => {
    for (const name of ['get-cms-categories', 'get-cms-tags', 'list-taxonomies', 'list-users', 'list-user-roles']) {
      await structured(name);
    }
    const target = await structured('create-category', { name: unique('MCP target') });
    const source = await structured('create-category', { name: unique('MCP source') });
    const tag = await structured('create-tag', { name: unique('MCP tag') });
    await structured('update-category', { id: target.id, name: unique('MCP renamed') });
    await structured('update-tag', { id: tag.id, name: unique('MCP tag renamed'), description: null });
    const [post] = await wp().get<Array<{ id: number }>>('/wp/v2/posts', { per_page: 1, _fields: 'id' });
    await structured('assign-categories-to-posts', { post_ids: [post!.id], category_ids: [source.id] });
    await structured('assign-tags-to-posts', { post_ids: [post!.id], tag_ids: [tag.id] });
    await structured('merge-categories', { source_ids: [source.id], target_id: target.id, delete_sources: true });
    await structured('delete-category', { id: target.id, force: true });
    await structured('delete-tag', { id: tag.id, force: true });
    await structured('list-terms', { taxonomy: 'genre' });
    await structured('find-posts', { limit: 1 });
    const genre = await structured('create-term', { taxonomy: 'genre', name: unique('MCP genre') });
    const other = await structured('create-term', { taxonomy: 'genre', name: unique('MCP genre two') });
    await structured('update-term', { taxonomy: 'genre', id: genre.id, name: unique('MCP genre renamed') });
    await structured('assign-terms-to-posts', { taxonomy: 'genre', post_ids: [post!.id], term_ids: [other.id] });
    await structured('remove-terms-from-posts', { taxonomy: 'genre', post_ids: [post!.id], term_ids: [other.id] });
    await structured('merge-terms', {
      taxonomy: 'genre',
      source_ids: [other.id],
      target_id: genre.id,
      delete_sources: true,
    });
    await structured('delete-term', { taxonomy: 'genre', id: genre.id, force: true });
    // Taxonomy clean-up (#51).
    await structured('find-duplicate-terms', { taxonomy: 'post_tag', limit: 5 });
    await structured('recount-terms', { taxonomy: 'genre' });
    const parent = await structured('create-category', { name: unique('MCP parent') });
    const child = await structured('create-category', { name: unique('MCP child') });
    await structured('set-terms-parent', { taxonomy: 'category', term_ids: [child.id], parent: parent.id });
    const lone = await structured('create-tag', { name: unique('MCP lone') });
    await structured('prune-terms', { taxonomy: 'post_tag', search: lone.name });
    await structured('migrate-terms', { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [child.id] });

    const username = unique('mcpuser').replace(/\s+/g, '').toLowerCase();
    const user = await structured('create-user', {
      username,
      email: `${username}@example.org`,
      password: `Zq7-correct-horse-battery-${Date.now().toString(36)}`,
      role: 'subscriber',
    });
    await structured('update-user', { id: user.id, name: 'MCP User', bio: null });
    await structured('set-user-role', { id: user.id, role: 'author' });
    // Bulk accounts (#50): one account from CSV, then two accounts' role in one call.
    const imported = await structured('import-users', {
      csv: `user_login,user_email,role\n${username}b,${username}b@example.org,subscriber\n`,
    });
    const importedId = imported.rows[0].id as number;
    await structured('set-users-role', { user_ids: [user.id, importedId], to_role: 'contributor' });
    for (const id of [user.id, importedId])
      expect((await wp().get<{ roles: string[] }>(`/wp/v2/users/${id}`, { context: 'edit' })).roles).toEqual(['contributor']);
    await structured('delete-user', { id: importedId, reassign_to: null, delete_content: true });
    // Roles and capabilities (#50): none of these grants power, so no one is asked.
    const roleSlug = `mcp_${Date.now().toString(36)}`;
    await structured('create-role', { slug: roleSlug, name: 'MCP role', clone_from: 'author' });
    await structured('update-role', { slug: roleSlug, add_capabilities: ['moderate_comments'] });
    await structured('delete-role', { slug: roleSlug });
    await structured('find-users-with-capability', { capability: 'edit_posts', limit: 5 });
    await structured('update-user-capabilities', { user_id: user.id, add_capabilities: ['moderate_comments'] });
    await structured('disable-user', { id: user.id, reason: 'mcp test' });
    await structured('enable-user', { id: user.id });
    await structured('reset-user-password', { id: user.id, delivery: 'email' });
    await structured('list-app-passwords', { user_id: user.id });
    await structured('revoke-app-passwords', { user_id: user.id });
    await structured('list-user-sessions', { user_id: user.id });
    await structured('log-out-user', { user_id: user.id });
    await structured('delete-user', { id: user.id, reassign_to: null, delete_content: true });
    await structured('create-category', { name: unique('MCP undone') });
    const changes = await structured('list-changes', { limit: 3 });
    await structured('undo-change', { change_id: changes.items[0].change_id });
    // The site's abilities (#62; the sandbox runs 7.1): a read-only core ability runs unasked.
    await structured('find-abilities', { namespace: 'core' });
    await structured('describe-ability', { name: 'core/get-site-info' });
    await structured('run-ability', { name: 'core/get-site-info' });
    expect([...seen].sort()).toEqual(registry.map((t) => t.name).sort());
  });

  it('an error is an isError result with {code, message, hint} as text and no structuredContent', async () => {
    const result = await client.callTool({ name: 'update-category', arguments: { id: 999_999, name: 'x' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const { error } = JSON.parse((result.content as Array<{ text: string }>)[0]!.text);
    expect(error).toMatchObject({ code: expect.any(String), message: expect.any(String), hint: expect.any(String) });
  });

  it('a bulk call in which every post failed is an isError result too (all_posts_failed)', async () => {
    const result = await client.callTool({
      name: 'assign-categories-to-posts',
      arguments: { post_ids: [987_654_321], category_ids: [1] },
    });
    expect(result.isError).toBe(true);
    const { error } = JSON.parse((result.content as Array<{ text: string }>)[0]!.text);
    expect(error).toMatchObject({ code: 'all_posts_failed', details: { failures: [{ code: 'post_not_found' }] } });
  });
});
