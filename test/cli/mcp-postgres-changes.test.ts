import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgresUrl, pgChangeStore, redactedStoreUrl } from '../../src/undo/change-store-pg.js';
import { stillRunning } from '../../src/undo/change-store.js';
import { type ChangeEntry, newChangeId } from '../../src/undo/journal.js';
import { journalTail } from '../../src/undo/journal-read.js';
import { withUndoLock } from '../../src/undo/serial.js';
import { siteKey } from '../../src/undo/site-key.js';
import { runCli } from '../helpers/cli.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { type McpHttpChild, startMcpHttp } from '../helpers/mcp-http-cli.js';
import { recordOutput } from '../helpers/output-log.js';
import { fixedPorts } from '../helpers/ports.js';
import { startPostgres } from '../helpers/postgres.js';
import { testSite, wp } from '../helpers/site.js';
import { newIdentity, newPassword } from '../wordpress/users/helpers.js';

/**
 * The change store in PostgreSQL (issue #49, "many replicas, one PostgreSQL"): first the store
 * itself against the SQLite store's expectations (test/unit/journal.test.ts), then two
 * `cms-admin mcp --http --store postgres://…` processes on one real PostgreSQL and one real
 * WordPress: a change made through one is listed and undone through the other, and a replica
 * killed mid-call (its WordPress write parked by the fault proxy, so the kill lands after its
 * intent is committed) leaves a change the other lists as incomplete and undoes from the site,
 * with nothing written twice.
 */
const token = `pgc-token-${'q'.repeat(24)}-${process.pid}`;
const site = testSite();
let db: Awaited<ReturnType<typeof startPostgres>>;
let proxy: FaultProxy;
const servers: McpHttpChild[] = [];

beforeAll(async () => {
  db = await startPostgres({ port: fixedPorts().postgresChanges });
  proxy = await new FaultProxy(site.url).start();
}, 120_000);

afterAll(async () => {
  for (const { child } of servers) if (child.exitCode === null && child.signalCode === null) child.kill();
  await Promise.all(
    servers.map(({ child }) => (child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : undefined)),
  );
  await proxy?.stop();
  await db?.stop();
  recordOutput(servers.map((server) => server.stderr()).join(''));
});

/** Waits for a condition, a bounded number of tries (each a round trip: no timers). */
async function until<T>(probe: () => Promise<T | undefined | false>, what: string): Promise<T> {
  for (let i = 0; i < 2000; i++) {
    const got = await probe();
    if (got) return got;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

const A = siteKey('http://127.0.0.1:9300');
const B = siteKey('http://127.0.0.1/9300');

const entry = (over: Partial<ChangeEntry> = {}): ChangeEntry => ({
  change_id: newChangeId(),
  at: new Date().toISOString(),
  tool: 'update-category',
  params: { id: 1 },
  summary: 's',
  reversible: true,
  before: {},
  after: {},
  ...over,
});

const opened: Array<ReturnType<typeof pgChangeStore>> = [];
/** The store at the test's database; with a tag, under another URL: its own pool (as another process has). */
function storeOf(tag?: string) {
  const store = pgChangeStore(tag ? `${db.url}?application_name=${tag}` : db.url);
  opened.push(store);
  return store;
}
const otherProcess = (tag: string) => storeOf(tag);

describe('the change store in PostgreSQL', () => {
  afterAll(async () => {
    for (const store of opened) await store.close();
  });

  it('one store shared by two sites: each view reads only its own; runs, counts; another site refused', async () => {
    const store = storeOf();
    const a = store.journal().forSite!(A);
    const b = store.journal().forSite!(B);
    await a.append(entry({ summary: 'on a', user_id: 1, run_id: 'r1' }));
    await b.append(entry({ summary: 'on b', user_id: 1, run_id: 'r1' }));
    expect((await a.entries()).map((e) => e.summary)).toEqual(['on a']);
    expect((await b.byRun!('r1')).map((e) => e.summary)).toEqual(['on b']);
    expect((await journalTail(a, { id: 1, username: 'admin' }, {})).map((e) => e.summary)).toEqual(['on a']);
    await expect(a.append(entry({ site: B }))).rejects.toThrow(/written to the journal view/);
    expect(await store.runSites('r1')).toEqual(expect.arrayContaining([A, B]));
    // Another process's pool reads the same rows.
    expect((await otherProcess('reader').journal(B).entries()).map((e) => e.summary)).toEqual(['on b']);
  });

  it('an intent is completed in place, keeping its place; a failed one that changed nothing is dropped; newest first a page at a time', async () => {
    const site = siteKey('http://127.0.0.1:9301');
    const j = storeOf().journal(site);
    const intent = entry({ summary: 'under way', status: 'pending', pid: process.pid });
    await j.append(intent);
    await j.append(entry({ summary: 'later' }));
    await j.update!({ ...intent, summary: 'done', status: 'done' });
    expect((await j.entries()).map((e) => `${e.summary}:${e.status}`)).toEqual(['done:done', 'later:undefined']);
    const failed = entry({ status: 'pending' });
    await j.append(failed);
    await j.discard!(failed.change_id);
    expect(await j.entries()).toHaveLength(2);
    await expect(j.update!(entry({ summary: 'never begun' }))).rejects.toMatchObject({ code: 'journal_unavailable' });
    for (let i = 0; i < 450; i++) await j.append(entry({ summary: `n${i}` }));
    const seen: string[] = [];
    for await (const item of j.latest!()) seen.push((item as ChangeEntry).summary);
    expect(seen).toHaveLength(452);
    expect(seen.slice(0, 2)).toEqual(['n449', 'n448']);
    expect(seen.slice(-2)).toEqual(['later', 'done']);
  });

  it('a store that cannot be reached stops the write with journal_unavailable, naming it without its password', async () => {
    const secret = `pw-${process.pid}-sekret`;
    const url = `postgres://cms:${secret}@127.0.0.1:1/changes?password=${secret}`;
    expect(isPostgresUrl(url)).toBe(true);
    expect(redactedStoreUrl(url)).toBe('postgres://cms@127.0.0.1:1/changes');
    const j = pgChangeStore(url).journal(A);
    const err = await j.append(entry()).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string; hint: string },
    );
    expect(err?.code).toBe('journal_unavailable');
    expect(err?.message).toContain('postgres://cms@127.0.0.1:1/changes');
    expect(`${err?.message} ${err?.hint}`).not.toContain(secret);
  });

  it('prune deletes by age and by size; the newest stay, in order', async () => {
    const store = otherProcess('prune');
    const site = siteKey('http://127.0.0.1:9302');
    const j = store.journal(site);
    // The other tests' rows are older than these: prune by size keeps the newest only.
    await j.append(entry({ at: '2020-01-01T00:00:00.000Z', summary: 'old' }));
    for (let i = 0; i < 300; i++) await j.append(entry({ summary: `new${i}`, before: { pad: 'x'.repeat(2000) } }));
    const aged = await store.prune({ olderThanMs: 90 * 86_400_000 });
    expect(aged.removed).toBe(1);
    const sized = await store.prune({ maxBytes: 300_000 });
    expect(sized.removed).toBeGreaterThan(0);
    const left = await j.entries();
    expect(left.length).toBeGreaterThan(100);
    expect(left.length).toBeLessThan(150);
    expect(left.at(-1)?.summary).toBe('new299');
    expect(sized.kept).toBe(await store.count());
  });

  it('a pending entry is running while its process holds the store, incomplete once its session ends, on any reader', async () => {
    const site = siteKey('http://127.0.0.1:9303');
    const writer = otherProcess('writer');
    const reader = otherProcess('reader2');
    // Made on another host: only PostgreSQL can say whether its process still runs.
    const intent = entry({ status: 'pending', pid: 4242, host: 'replica-elsewhere' });
    await writer.journal(site).append(intent);
    const seen = async () => (await reader.journal(site).entries()).find((e) => e.change_id === intent.change_id) as ChangeEntry;
    expect(stillRunning(await seen())).toBe(true);
    await writer.close();
    const gone = await until(async () => {
      const e = await seen();
      return !stillRunning(e) && e;
    }, 'the writer session ended');
    expect(gone.status).toBe('pending');
  });

  it('undos of one site wait for each other across processes (an advisory lock); another site does not', async () => {
    const site = siteKey('http://127.0.0.1:9304');
    const one = otherProcess('undo1').journal(site);
    const two = otherProcess('undo2').journal(site);
    const elsewhere = otherProcess('undo3').journal(siteKey('http://127.0.0.1:9305'));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let began!: () => void;
    const started = new Promise<void>((resolve) => {
      began = resolve;
    });
    const order: string[] = [];
    const first = withUndoLock(one, async () => {
      order.push('one starts');
      began();
      await gate;
      order.push('one ends');
    });
    await started;
    // Another process: its own queue is empty, so it goes straight to the store's lock.
    const second = two.serialize!(async () => {
      order.push('two starts');
    });
    await withUndoLock(elsewhere, async () => {
      order.push('elsewhere');
    });
    // The second waits in PostgreSQL: its lock is asked for and not granted.
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    try {
      await until(
        async () =>
          (await check.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 4904919 AND NOT granted")).rowCount,
        'the second undo waits for the lock',
      );
    } finally {
      await check.end();
    }
    expect(order).toEqual(['one starts', 'elsewhere']);
    open();
    await Promise.all([first, second]);
    expect(order).toEqual(['one starts', 'elsewhere', 'one ends', 'two starts']);
  });
});

async function startServer(): Promise<McpHttpChild> {
  const { CMS_STORE: _s, CMS_JOURNAL: _j, ...rest } = process.env;
  const server = await startMcpHttp(['--port', '0', '--store', db.url], {
    ...rest,
    // A state folder each, as on two machines: only PostgreSQL is shared.
    XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'replica-state-')),
    // Both replicas reach WordPress through the fault proxy: one site (one site key) for both.
    CMS_URL: proxy.url,
    CMS_USERNAME: site.username,
    CMS_APP_PASSWORD: site.appPassword,
    CMS_MCP_TOKEN: token,
  });
  servers.push(server);
  return server;
}

async function connect(url: string): Promise<Client> {
  const client = new Client(
    { name: 'replica-changes-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

type Round = {
  resultType?: string;
  isError?: boolean;
  requestState?: string;
  structuredContent?: Record<string, unknown>;
  content?: Array<{ text?: string }>;
  inputRequests?: Record<string, { params: { message: string } }>;
};

const callTool = (client: Client, name: string, args: Record<string, unknown>, requestState?: string) =>
  client.callTool(
    {
      name,
      arguments: args,
      ...(requestState && { inputResponses: { approve: { action: 'accept', content: {} } }, requestState }),
    } as never,
    { allowInputRequired: true } as never,
  ) as Promise<Round>;

/** Calls, and when asked for approval, approves on the same replica. */
async function approved(client: Client, name: string, args: Record<string, unknown>): Promise<Round> {
  const first = await callTool(client, name, args);
  if (first.resultType !== 'input_required') return first;
  return callTool(client, name, args, first.requestState);
}

type Listed = { change_id: string; tool: string; undone: boolean; incomplete?: string };
async function listChanges(client: Client): Promise<Listed[]> {
  const out = await callTool(client, 'list-changes', { limit: 20 });
  expect(out.isError, JSON.stringify(out.content)).toBe(false);
  return (out.structuredContent as { items: Listed[] }).items;
}

async function rolesOf(id: number): Promise<string[]> {
  return (await wp().get<{ roles: string[] }>(`/wp/v2/users/${id}`, { context: 'edit' })).roles;
}

async function usersWithEmail(email: string): Promise<Array<{ id: number }>> {
  return wp().get<Array<{ id: number }>>('/wp/v2/users', { search: email, search_columns: ['email'], context: 'edit' });
}

describe('two mcp --http replicas on one PostgreSQL share the change store', () => {
  it('a change made through one is listed and undone through the other; `cms-admin changes --store` lists it too', async () => {
    const [one, two] = await Promise.all([startServer(), startServer()]);
    const { username, email } = newIdentity('pgchange');
    const user = await wp().post<{ id: number }>('/wp/v2/users', { username, email, password: newPassword(), roles: ['subscriber'] });
    const [a, b] = await Promise.all([connect(one.url), connect(two.url)]);
    try {
      const done = await approved(a, 'set-user-role', { id: user.id, role: 'editor' });
      expect(done.isError, JSON.stringify(done.content)).toBe(false);
      expect(await rolesOf(user.id)).toEqual(['editor']);
      const listed = (await listChanges(b)).find((c) => c.tool === 'set-user-role' && !c.undone);
      expect(listed?.incomplete).toBeUndefined();
      const cli = await runCli(['changes', '--store', db.url, '--json'], {
        env: { CMS_URL: proxy.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_STORE: undefined, CMS_JOURNAL: undefined },
      });
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stdout).toContain(listed?.change_id);
      const undo = await approved(b, 'undo-change', { change_id: listed?.change_id });
      expect(undo.isError, JSON.stringify(undo.content)).toBe(false);
      expect(await rolesOf(user.id)).toEqual(['subscriber']);
      // Undone once, for both: the other replica sees the undo and refuses a second.
      expect((await listChanges(a)).find((c) => c.change_id === listed?.change_id)?.undone).toBe(true);
      const again = await approved(a, 'undo-change', { change_id: listed?.change_id });
      expect(again.isError).toBe(true);
      expect(JSON.stringify(again.content)).toMatch(/already_undone|already undone/);
    } finally {
      await Promise.all([a.close(), b.close()]);
      for (const s of [one, two]) s.child.kill();
    }
  });

  it('an admin undoes from a shell what a replica did: `cms-admin undo` with CMS_STORE', async () => {
    const server = await startServer();
    const { username, email } = newIdentity('pgshell');
    const user = await wp().post<{ id: number }>('/wp/v2/users', { username, email, password: newPassword(), roles: ['subscriber'] });
    const a = await connect(server.url);
    try {
      const done = await approved(a, 'set-user-role', { id: user.id, role: 'author' });
      expect(done.isError, JSON.stringify(done.content)).toBe(false);
      expect(await rolesOf(user.id)).toEqual(['author']);
      const id = (await listChanges(a)).find((c) => c.tool === 'set-user-role' && !c.undone)?.change_id as string;
      const undo = await runCli(['undo', id, '--yes'], {
        env: { CMS_URL: proxy.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_STORE: db.url, CMS_JOURNAL: undefined },
      });
      expect(undo.code, undo.stderr).toBe(0);
      expect(await rolesOf(user.id)).toEqual(['subscriber']);
      // The replica sees the shell's undo.
      expect((await listChanges(a)).find((c) => c.change_id === id)?.undone).toBe(true);
    } finally {
      await a.close();
      server.child.kill();
    }
  });

  it('a replica killed mid-call: the other lists the change as incomplete, refuses the retried approval naming it, and undoes it from the site; nothing is done twice', async () => {
    const [one, two] = await Promise.all([startServer(), startServer()]);
    const { username, email } = newIdentity('pgkill');
    const args = { username, email, password: newPassword(), role: 'editor' };
    const [a, b] = await Promise.all([connect(one.url), connect(two.url)]);
    const creates = () => proxy.count('POST', /wp\/v2\/users(\?|$)|rest_route=%2Fwp%2Fv2%2Fusers(&|$)/);
    const createsBefore = creates();
    try {
      // Asked and approved through A; its WordPress write is parked: the intent is committed by then.
      const asked = await callTool(a, 'create-user', args);
      expect(asked.resultType).toBe('input_required');
      proxy.inject({ method: 'POST', path: /wp\/v2\/users(\?|$)|rest_route=%2Fwp%2Fv2%2Fusers(&|$)/, limit: 1, fault: { kind: 'hold' } });
      const lost = callTool(a, 'create-user', args, asked.requestState).then(
        () => 'answered',
        () => 'lost',
      );
      await proxy.whenHeld();
      const died = new Promise((resolve) => one.child.once('exit', resolve));
      one.child.kill('SIGKILL');
      await died;
      expect(await lost).toBe('lost');
      // WordPress gets the write the dead replica sent: it was applied, and no one heard back.
      proxy.release();
      await until(async () => (await usersWithEmail(email)).length === 1, 'WordPress made the account');
      proxy.clear();

      // Through B: incomplete, and may have been applied.
      const listed = (await listChanges(b)).find((c) => c.tool === 'create-user');
      expect(listed?.incomplete).toMatch(/may have been applied/);
      // The client retries the approved call on B: refused as used, naming the change to check and undo.
      const retry = await callTool(b, 'create-user', args, asked.requestState).then(
        () => '',
        (err: Error) => err.message,
      );
      expect(retry).toMatch(/already used/);
      expect(retry).toContain(listed?.change_id);
      expect(retry).toMatch(/undo-change/);
      expect(await usersWithEmail(email)).toHaveLength(1);

      // Undone through B: read from the site, the account A made is removed.
      const undo = await approved(b, 'undo-change', { change_id: listed?.change_id });
      expect(undo.isError, JSON.stringify(undo.content)).toBe(false);
      expect(await usersWithEmail(email)).toHaveLength(0);
      // One create reached WordPress in all: the dead replica's, never a second.
      expect(creates() - createsBefore).toBe(1);
      expect((await listChanges(b)).find((c) => c.change_id === listed?.change_id)?.undone).toBe(true);
    } finally {
      proxy.clear();
      await Promise.all([a.close().catch(() => {}), b.close()]);
      two.child.kill();
    }
  });
});
