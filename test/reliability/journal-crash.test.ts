import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { FaultProxy, type FaultRule } from '../helpers/fault-proxy.js';
import { recordOutput } from '../helpers/output-log.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { readTerm } from '../wordpress/taxonomy/fixtures.js';

/**
 * Issue #47, findings 5 and 6: `kill -9` at each step boundary of a write leaves a record that
 * says exactly what may have happened, and undo finishes it; a journal that cannot be written
 * stops the write before WordPress sees it; a write whose outcome cannot be read back says in
 * its answer that it cannot be undone. The boundaries are made with the fault proxy: a request
 * it holds parks the CLI right there, and the CLI is killed while it waits.
 */
let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
});
afterAll(() => proxy.stop());

const envFor = (journal: string) => {
  const site = testSite();
  return { CMS_URL: proxy.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: journal };
};
const newJournal = () => path.join(mkdtempSync(path.join(tmpdir(), 'crash-')), 'changes.db');

/** Starts `cms-admin invoke`, waits until the proxy holds the request `rule` picks, kills it (SIGKILL). */
async function killWhenHeld(call: object, env: NodeJS.ProcessEnv, rule: Omit<FaultRule, 'fault'>): Promise<void> {
  proxy.clear().inject({ ...rule, limit: 1, fault: { kind: 'hold' } });
  const child = spawn(process.execPath, [...cliArgs(), 'invoke', JSON.stringify(call)], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await Promise.race([proxy.whenHeld(), exited.then(() => Promise.reject(new Error(`the CLI ended before the held request: ${out}`)))]);
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  recordOutput(out);
}

/** `changes` lists the tool's entry as incomplete; `undo --yes` then succeeds. */
async function incompleteThenUndo(journal: string, tool: string): Promise<void> {
  expect((await runCli(['changes'], { env: envFor(journal) })).stdout).toMatch(new RegExp(`${tool}\\s+.*incomplete`));
  const undo = await runCli(['undo', '--yes'], { env: envFor(journal) });
  expect(undo.code, undo.stdout + undo.stderr).toBe(0);
}

const GET_TERM = (id: number) => ({ method: 'GET', path: new RegExp(`/wp/v2/categories\\?include=${id}&`) });

describe('kill -9 at each step of a single write (update-category)', { timeout: 120_000 }, () => {
  it('before the intent: no entry, nothing changed', async () => {
    const journal = newJournal();
    const name = unique('Crash before');
    const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
    await killWhenHeld({ tool: 'update-category', params: { id: cat.id, name: `${name} 2` } }, envFor(journal), { ...GET_TERM(cat.id), nth: 1 });
    proxy.clear();
    expect((await readTerm('categories', cat.id))?.name).toBe(name);
    const listed = await runCli(['changes'], { env: envFor(journal) });
    expect(listed.stdout).toContain('0 of 0 changes');
    const undo = await runCli(['undo', '--yes'], { env: envFor(journal) });
    expect(undo.stderr).toContain('nothing_to_undo');
  });

  it('after the intent, the write delivered after the kill: changes says incomplete, undo reads the site and puts it back', async () => {
    const journal = newJournal();
    const name = unique('Crash during');
    const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
    await killWhenHeld({ tool: 'update-category', params: { id: cat.id, name: `${name} 2` } }, envFor(journal), {
      method: 'POST',
      path: new RegExp(`/wp/v2/categories/${cat.id}\\b`),
    });
    // The request reaches WordPress after its sender died: the site changes, nobody hears back.
    proxy.release();
    await vi.waitFor(async () => expect((await readTerm('categories', cat.id))?.name).toBe(`${name} 2`), { timeout: 20_000 });
    proxy.clear();
    const listed = await runCli(['changes'], { env: envFor(journal) });
    expect(listed.stdout).toMatch(/update-category\s+.*incomplete/);
    expect(listed.stdout).toContain('may have been applied');
    const dry = await runCli(['undo', '--dry-run'], { env: envFor(journal) });
    expect(dry.stdout).toContain(`rename it to "${name}"`);
    const undo = await runCli(['undo', '--yes'], { env: envFor(journal) });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect((await readTerm('categories', cat.id))?.name).toBe(name);
    // Undone: a second undo finds nothing left.
    expect((await runCli(['undo', '--yes'], { env: envFor(journal) })).stderr).toContain('nothing_to_undo');
  });

  it('never delivered (the sender died first): incomplete, and undo finds the site as it was (nothing to put back)', async () => {
    const journal = newJournal();
    const name = unique('Crash lost');
    const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
    // The write waits at the proxy, which forwards it only while its sender still waits for it.
    const path = new RegExp(`/wp/v2/categories/${cat.id}\\b`);
    proxy.clear().inject({ method: 'POST', path, fault: { kind: 'delay', ms: Number.POSITIVE_INFINITY } });
    const child = spawn(process.execPath, [...cliArgs(), 'invoke', JSON.stringify({ tool: 'update-category', params: { id: cat.id, name: `${name} 2` } })], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...envFor(journal) },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', (_c, signal) => resolve(signal)));
    await vi.waitFor(() => expect(proxy.count('POST', path)).toBe(1), { timeout: 20_000 });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    proxy.clear();
    expect((await readTerm('categories', cat.id))?.name).toBe(name);
    await incompleteThenUndo(journal, 'update-category');
    expect((await readTerm('categories', cat.id))?.name).toBe(name);
    // Settled: nothing is left to undo.
    expect((await runCli(['undo', '--yes'], { env: envFor(journal) })).stderr).toContain('nothing_to_undo');
  });

  it('after WordPress answered, before the entry was completed: incomplete, undo puts it back', async () => {
    const journal = newJournal();
    const name = unique('Crash after');
    const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
    await killWhenHeld({ tool: 'update-category', params: { id: cat.id, name: `${name} 2` } }, envFor(journal), { ...GET_TERM(cat.id), nth: 2 });
    proxy.clear();
    expect((await readTerm('categories', cat.id))?.name).toBe(`${name} 2`);
    await incompleteThenUndo(journal, 'update-category');
    expect((await readTerm('categories', cat.id))?.name).toBe(name);
  });
});

describe('a write the client gave up on lands after the call ended (the undo property race under load)', { timeout: 120_000 }, () => {
  it('the call answers its timeout; the entry stays, unknown; undo puts back what landed later', async () => {
    const journal = newJournal();
    const name = unique('Late write');
    const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
    const path = new RegExp(`/wp/v2/categories/${cat.id}\\b`);
    proxy.clear().inject({ method: 'POST', path, limit: 1, fault: { kind: 'hold' } });
    const out = await runCli(['invoke', JSON.stringify({ tool: 'update-category', params: { id: cat.id, name: `${name} 2` } })], {
      env: { ...envFor(journal), CMS_TIMEOUT_MS: '1500' },
    });
    expect(out.code).not.toBe(0);
    expect(JSON.parse(out.stdout).error.code).toMatch(/ECONNABORTED|ETIMEDOUT/);
    // The site was not changed when the call read it back; now the parked request lands.
    expect((await readTerm('categories', cat.id))?.name).toBe(name);
    proxy.release();
    await vi.waitFor(async () => expect((await readTerm('categories', cat.id))?.name).toBe(`${name} 2`), { timeout: 20_000 });
    proxy.clear();
    await incompleteThenUndo(journal, 'update-category');
    expect((await readTerm('categories', cat.id))?.name).toBe(name);
  });
});

describe('kill -9 during a create (its id was only in the answer)', { timeout: 120_000 }, () => {
  it('create-category delivered after the kill: undo finds the category by its name and deletes it', async () => {
    const journal = newJournal();
    const name = unique('Crash create');
    await killWhenHeld({ tool: 'create-category', params: { name } }, envFor(journal), { method: 'POST', path: /\/wp\/v2\/categories(\?|$)/ });
    proxy.release();
    const named = async () => (await wp().get<Array<{ id: number; name: string }>>('/wp/v2/categories', { search: name, hide_empty: false })).filter((c) => c.name === name);
    await vi.waitFor(async () => expect(await named()).toHaveLength(1), { timeout: 20_000 });
    proxy.clear();
    expect((await runCli(['changes'], { env: envFor(journal) })).stdout).toMatch(/create-category\s+.*incomplete/);
    const dry = await runCli(['undo', '--dry-run'], { env: envFor(journal) });
    expect(dry.stdout).toContain(name);
    const undo = await runCli(['undo', '--yes'], { env: envFor(journal) });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(await named()).toEqual([]);
  });

  it('create-tag that WordPress refused (the name was taken before): undo leaves the tag that was there', async () => {
    const journal = newJournal();
    const name = unique('Crash taken');
    const taken = await wp().post<{ id: number }>('/wp/v2/tags', { name });
    await killWhenHeld({ tool: 'create-tag', params: { name } }, envFor(journal), { method: 'POST', path: /\/wp\/v2\/tags(\?|$)/ });
    proxy.release();
    proxy.clear();
    const undo = await runCli(['undo', '--yes'], { env: envFor(journal) });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect((await wp().get<{ id: number }>(`/wp/v2/tags/${taken.id}`)).id).toBe(taken.id);
  });
});

describe('kill -9 during a bulk write (assign-categories-to-posts)', { timeout: 120_000 }, () => {
  it('the write delivered after the kill: undo gives each post exactly its categories from before', async () => {
    const journal = newJournal();
    const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Crash bulk') });
    const posts = await Promise.all(
      [1, 2, 3].map((i) => wp().post<{ id: number; categories: number[] }>('/wp/v2/posts', { title: unique(`crash ${i}`), status: 'draft' })),
    );
    const before = Object.fromEntries(posts.map((p) => [p.id, [...p.categories].sort()]));
    await killWhenHeld(
      { tool: 'assign-categories-to-posts', params: { category_ids: [cat.id], post_ids: posts.map((p) => p.id) } },
      envFor(journal),
      { method: 'POST', path: /\/(cms-admin\/v1\/post-terms|batch\/v1)/ },
    );
    proxy.release();
    const categoriesOf = async (id: number) => (await wp().get<{ categories: number[] }>(`/wp/v2/posts/${id}`, { context: 'edit' })).categories.sort();
    await vi.waitFor(async () => expect(await categoriesOf(posts[2]!.id)).toContain(cat.id), { timeout: 20_000 });
    proxy.clear();
    await incompleteThenUndo(journal, 'assign-categories-to-posts');
    for (const p of posts) expect(await categoriesOf(p.id)).toEqual(before[p.id]);
    for (const p of posts) await wp().delete(`/wp/v2/posts/${p.id}`, { force: true });
  });
});

describe('what the journal could not do is said before or with the answer (finding 5)', { timeout: 60_000 }, () => {
  it('a journal that cannot be written stops the write before WordPress sees it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'crash-'));
    writeFileSync(path.join(dir, 'file'), 'not a folder');
    const name = unique('No journal');
    const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
    proxy.clear();
    const since = proxy.events.length;
    const out = await runCli(['invoke', JSON.stringify({ tool: 'update-category', params: { id: cat.id, name: `${name} 2` } })], {
      env: envFor(path.join(dir, 'file', 'changes.db')),
    });
    expect(out.code).not.toBe(0);
    const answer = JSON.parse(out.stdout);
    expect(answer.error.code).toBe('journal_unavailable');
    expect(answer.error.message).toContain(path.join(dir, 'file'));
    expect(answer.error.hint).toContain('--journal off');
    expect(proxy.count('POST', undefined, since)).toBe(0);
    expect((await readTerm('categories', cat.id))?.name).toBe(name);
  });

  it('the state after the write cannot be read: done, and the answer says it cannot be undone and why', async () => {
    const journal = newJournal();
    const name = unique('No after');
    const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
    // Every read after the write (the client's retries included) answers 500.
    proxy.clear().inject({ ...GET_TERM(cat.id), nth: [2, 3, 4, 5, 6, 7, 8], fault: { kind: 'status', status: 500, when: 'before' } });
    const out = await runCli(['invoke', JSON.stringify({ tool: 'update-category', params: { id: cat.id, name: `${name} 2` } })], { env: envFor(journal) });
    proxy.clear();
    expect(out.code, out.stderr).toBe(0);
    const answer = JSON.parse(out.stdout);
    expect(answer.result.cannot_undo).toMatch(/^done; cannot be undone: the state after the change could not be read \(.*500/);
    expect((await readTerm('categories', cat.id))?.name).toBe(`${name} 2`);
    expect((await runCli(['changes'], { env: envFor(journal) })).stdout).toMatch(/update-category\s+.*\bno\b/);
  });
});

describe('kill -9 during a bulk create (import-users: the ids were only in the answer)', { timeout: 120_000 }, () => {
  it('the accounts created after the kill are found by their logins, newer than the write, and undo deletes them', async () => {
    const journal = newJournal();
    const prefix = unique('crashimp').toLowerCase().replace(/[^a-z0-9_]/g, '_');
    const logins = [1, 2, 3].map((n) => `${prefix}_${n}`);
    const csv = ['user_login,user_email', ...logins.map((login) => `${login},${login}@example.test`)].join('\n');
    // The first request that creates an account: /batch/v1 (6.8+), or /wp/v2/users one by one (6.1).
    await killWhenHeld({ tool: 'import-users', params: { csv, delivery: 'email' } }, envFor(journal), {
      method: 'POST',
      path: /\/batch\/v1|\/wp\/v2\/users(\?|$)/,
    });
    proxy.release();
    const made = async () =>
      (await wp().get<Array<{ id: number; username: string }>>('/wp/v2/users', { search: prefix, context: 'edit', per_page: 100 })).filter((u) =>
        logins.includes(u.username),
      );
    // What the held request carried lands (every account on a batch, the first one without).
    await vi.waitFor(async () => expect((await made()).length).toBeGreaterThan(0), { timeout: 20_000 });
    proxy.clear();
    expect((await runCli(['changes'], { env: envFor(journal) })).stdout).toMatch(/import-users\s+.*incomplete/);
    const undo = await runCli(['undo', '--yes'], { env: envFor(journal) });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(await made()).toEqual([]);
  });
});
