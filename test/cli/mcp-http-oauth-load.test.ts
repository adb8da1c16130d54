import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { budgetCount } from '../helpers/budget.js';
import { makeUser, signIn } from '../helpers/mcp-oauth.js';
import { testSite, unique, wp } from '../helpers/site.js';
import type { MemoryOAuthClient } from '../helpers/wp-browser.js';

// 50 concurrent sessions of four signed-in people (administrator, two editors, an author), each
// making the budget's calls (test/helpers/budget.ts: 20 in CI, 5 in npm test; the 50 sessions run
// at once under both): every call answered with what its own person may do, every write audited
// under them. Each session's calls are a list-users (refused but to the administrator), a
// create-category (refused to the author), then reads.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const site = testSite();
const CALLS = budgetCount('oauthLoad', 'OAuth load');
const dir = mkdtempSync(path.join(tmpdir(), 'cms-oauth-load-'));
const auditLog = path.join(dir, 'audit.jsonl');
let server: McpHttpServer;
const created: string[] = [];

afterAll(async () => {
  await server?.close();
  const tags = await wp().get<Array<{ id: number; name: string }>>('/wp/v2/categories', {
    search: 'Load',
    per_page: 100,
  });
  for (const tag of tags.filter((t) => created.includes(t.name)))
    await wp().delete(`/wp/v2/categories/${tag.id}`, { force: true });
});

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

function heap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

it('50 sessions of 4 people at once, each making its calls: all answered, none crossing identities, memory back after', async () => {
  server = await serveMcpHttp(
    createContext(site),
    {},
    {},
    {
      port: 0,
      wordpress: {
        siteUrl: site.url,
        stateDir: path.join(dir, 'state'),
        contextFor: (login) => createContext({ url: site.url, ...login }, { auditLog }),
      },
    },
  );
  const roles = ['administrator', 'editor', 'editor', 'author'] as const;
  const people: Array<{ role: string; username: string; oauth: MemoryOAuthClient }> = [];
  for (const role of roles) {
    const user = await makeUser(role);
    const { client, oauth } = await signIn(server.url, user, `Load ${role}`);
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
    people.push({ role, username: user.username, oauth });
  }
  await until(() => server.sessions() === 0, 'the sign-in sessions to close');
  const start = heap();

  const results = await Promise.all(
    Array.from({ length: 50 }, async (_, n) => {
      const person = people[n % people.length] as (typeof people)[number];
      const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: person.oauth });
      const client = new Client({ name: `load-${n}`, version: '1.0.0' });
      await client.connect(transport);
      const wrong: string[] = [];
      for (let i = 0; i < CALLS; i++) {
        if (i === 1) {
          const name = unique(`Load ${person.username}`);
          created.push(name);
          const made = await client.callTool({ name: 'create-category', arguments: { name } });
          if (made.isError !== (person.role === 'author'))
            wrong.push(`create-category as ${person.role}: ${JSON.stringify(made.content)}`);
        } else if (i % 5 === 0) {
          const listed = await client.callTool({ name: 'list-users', arguments: { limit: 1 } });
          if (listed.isError !== (person.role !== 'administrator')) wrong.push(`list-users as ${person.role}`);
        } else {
          const tags = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
          if (tags.isError) wrong.push(`get-cms-tags as ${person.role}`);
        }
      }
      await transport.terminateSession();
      await client.close();
      return wrong;
    }),
  );
  expect(results.flat()).toEqual([]);

  const writes = readFileSync(auditLog, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { user: string; tool: string; params: { name: string } });
  const tagWrites = writes.filter((w) => w.tool === 'create-category' && w.params.name.startsWith('Load '));
  expect(tagWrites).toHaveLength(50);
  for (const write of tagWrites) expect(write.params.name.split(' ')[1]).toBe(write.user);
  const onSite = await wp().get<Array<{ name: string }>>('/wp/v2/categories', { search: 'Load', per_page: 100 });
  const madeBy = (role: string) => people.filter((p) => p.role === role).map((p) => p.username);
  for (const tag of onSite.filter((t) => created.includes(t.name))) {
    expect(madeBy('author')).not.toContain(tag.name.split(' ')[1]);
  }
  const writers = Array.from({ length: 50 }, (_, n) => roles[n % roles.length]).filter((r) => r !== 'author').length;
  expect(onSite.filter((t) => created.includes(t.name))).toHaveLength(writers);

  await until(() => server.sessions() === 0, 'every session to close');
  const end = heap();
  console.info(
    `heap: ${(start / 2 ** 20).toFixed(1)} MiB before, ${(end / 2 ** 20).toFixed(1)} MiB after 50 sessions × ${CALLS} calls`,
  );
  expect(end - start).toBeLessThan(8 * 2 ** 20);
}, 240_000);
