import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { testSite, unique, wp } from '../helpers/site.js';

// Issue #37 finding 2: a connection that drops while a call runs does not lose its answer, and
// the call is not run twice. The site is behind the fault proxy, whose `hold` keeps the write
// parked until the test has cut the client's stream; the SDK's own client then reconnects with
// Last-Event-ID (after the server's `retry:`) and gets the answer on the resumed stream.
const token = `resume-test-token-${process.pid}-0123456789`;
let proxy: FaultProxy;
let server: McpHttpServer;

beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
  server = await serveMcpHttp(createContext({ ...testSite(), url: proxy.url }), {}, {}, { port: 0, token });
});
afterAll(async () => {
  await server?.close();
  await proxy?.stop();
});

const CREATE_TAG = /^\/wp-json\/wp\/v2\/tags(\?|$)/;

/**
 * fetch for the client: the first tools/call's stream is cut (the request aborted, so the
 * server sees the connection go) once an event with an id has arrived, as a proxy or a flaky
 * network would. Everything else passes through.
 */
interface Seen {
  cut: number;
  dropped: boolean;
  resumedWith: string[];
}

function droppingFetch(seen: Seen): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const lastEventId = headers.get('last-event-id');
    if (lastEventId) seen.resumedWith.push(lastEventId);
    const body = typeof init?.body === 'string' ? init.body : '';
    if (seen.cut > 0 || init?.method !== 'POST' || !body.includes('"tools/call"')) return fetch(input, init);
    seen.cut++;
    const connection = new AbortController();
    const res = await fetch(input, { ...init, signal: connection.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const cut = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        text += decoder.decode(value, { stream: true });
        if (/^id: \S+\n(.*\n)*\n/m.test(text)) {
          connection.abort();
          seen.dropped = true;
          controller.error(new TypeError('terminated: the connection dropped (test)'));
        }
      },
    });
    return new Response(cut, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

async function connect(seen: Seen, capabilities = {}) {
  const client = new Client({ name: 'resume-test', version: '1.0.0' }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: droppingFetch(seen),
  });
  await client.connect(transport);
  return client;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

const postsToTags = () => proxy.events.filter((e) => e.method === 'POST' && CREATE_TAG.test(e.path)).length;

it('a POST stream opens with a priming event (id, retry, empty data); the answer has an id too', async () => {
  const post = (body: object, session?: string) =>
    fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...(session && { 'mcp-session-id': session }),
      },
      body: JSON.stringify(body),
    });
  const init = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const session = init.headers.get('mcp-session-id') as string;
  await init.text();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  const listed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
  const text = await listed.text();
  expect(text).toMatch(/^id: \S+\nretry: 1000\ndata: \n\n/);
  expect(text).toMatch(/\nid: \S+\ndata: \{"result":\{"tools"/);
  await fetch(server.url, { method: 'DELETE', headers: { authorization: `Bearer ${token}`, 'mcp-session-id': session } });
});

it('a long call whose stream dropped is answered after the client reconnects with Last-Event-ID; it ran once', async () => {
  proxy.clear().inject({ method: 'POST', path: CREATE_TAG, fault: { kind: 'hold' } });
  const seen: Seen = { cut: 0, dropped: false, resumedWith: [] };
  const client = await connect(seen);
  try {
    const name = unique('Resumed tag');
    const before = postsToTags();
    const answer = client.callTool({ name: 'create-tag', arguments: { name } });
    // The write is parked at WordPress's door while the client's stream is cut.
    await proxy.whenHeld();
    await until(() => seen.dropped, 'the stream to drop');
    proxy.release();
    const result = await answer;
    expect(result.isError).toBe(false);
    expect(seen.resumedWith.length).toBeGreaterThanOrEqual(1);
    const onSite = await wp().get<Array<{ id: number; name: string }>>('/wp/v2/tags', { search: name });
    expect(onSite.map((t) => t.name)).toEqual([name]);
    expect((result.structuredContent as { id: number }).id).toBe(onSite[0]?.id);
    expect(postsToTags() - before).toBe(1);
  } finally {
    await client.close();
  }
});

it('a pending approval question survives the dropped stream: asked once, answered, the write done once', async () => {
  proxy.clear();
  const seen: Seen = { cut: 0, dropped: false, resumedWith: [] };
  const client = await connect(seen, { elicitation: {} });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept' };
  });
  try {
    const username = unique('resumed').toLowerCase().replace(/[^a-z0-9]/g, '');
    const result = await client.callTool({
      name: 'create-user',
      arguments: { username, email: `${username}@example.com`, role: 'administrator', password: `Resume-${process.pid}-pass!` },
    });
    expect(seen.dropped).toBe(true);
    expect(seen.resumedWith.length).toBeGreaterThanOrEqual(1);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(`create the user ${username}`);
    expect(result.isError).toBe(false);
    const onSite = await wp().get<Array<{ roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
    expect(onSite.map((u) => u.roles)).toEqual([['administrator']]);
  } finally {
    await client.close();
  }
});
