import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { recordOutput } from '../helpers/output-log.js';
import { unique } from '../helpers/site.js';
import { siteKey } from '../../src/undo/site-key.js';

/**
 * Issue #47 on real sandbox sites: one change store shared by several sites (finding 1), a fleet
 * write killed between two sites' steps (finding 6), and `undo --run --json` naming a site it
 * could not reach (finding 9). Every site is read back through its own client.
 */
let fleet: Fleet;
let proxy: FaultProxy;
const WRONG = 'wxyz wxyz wxyz wxyz wxyz wxyz';

beforeAll(async () => {
  fleet = await startFleet();
  const [one, two] = fleet.sites as [Fleet['sites'][0], Fleet['sites'][0]];
  proxy = await new FaultProxy(two.url).start();
  const profiles = [
    ...fleet.sites.map((s) => ({ name: s.name, url: s.url, username: s.username, appPassword: s.appPassword, groups: ['real'] })),
    // Site two again, through a proxy that can park a request (a separate site to the store: its own URL).
    { name: 'held', url: proxy.url, username: two.username, appPassword: two.appPassword, groups: [] },
    { name: 'wrongpw', url: one.url, username: one.username, appPassword: WRONG, groups: [] },
  ];
  const { writeProfiles } = await import('../../src/sites/store.js');
  writeProfiles({ version: 1, sites: profiles }, path.join(fleet.configHome, 'cms-admin', 'sites.json'));
}, 300_000);

afterAll(async () => {
  await proxy?.stop();
  await fleet?.stop();
});

const journalFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'fleet-journal-')), 'shared.db');
const lines = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const categories = async (site: string) =>
  (await fleet.client(site).get<Array<{ id: number; name: string; description: string }>>('/wp/v2/categories', { per_page: 100, hide_empty: false, context: 'edit' }));
const category = async (site: string, id: number) =>
  fleet.client(site).get<{ id: number; name: string; description: string }>(`/wp/v2/categories/${id}`, { context: 'edit' });

describe('one change store, several sites', { timeout: 300_000 }, () => {
  it('invoke --sites with one --journal: undo --run takes back each site its own change, and nothing else (finding 1)', async () => {
    const env = fleet.env({ CMS_JOURNAL: journalFile() });
    const name = unique('Shared store');
    const before = Object.fromEntries(await Promise.all(['one', 'two', 'three'].map(async (s) => [s, (await categories(s)).map((c) => c.id).sort()])));
    const out = await runCli(['invoke', '--sites', '@real', '--json', JSON.stringify({ tool: 'create-category', params: { name } })], { env, timeoutMs: 120_000 });
    expect(out.code, out.stderr).toBe(0);
    const runId = lines(out.stdout)[0].run as string;
    // Another change on site one alone, outside the run, in the same store.
    const renamed = await runCli(['invoke', JSON.stringify({ tool: 'update-category', params: { id: 1, description: unique('outside the run') } })], { env: { ...env, CMS_SITE: 'one' } });
    expect(renamed.code, renamed.stderr).toBe(0);
    const undo = await runCli(['undo', '--run', runId, '--yes', '--json', '--sites', '@real'], { env, timeoutMs: 120_000 });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    const bySite = Object.fromEntries(lines(undo.stdout).map((l) => [l.site, l]));
    expect(Object.keys(bySite).sort()).toEqual(['one', 'three', 'two']);
    for (const s of ['one', 'two', 'three']) {
      expect(bySite[s].ok).toBe(true);
      expect(bySite[s].result).toHaveLength(1);
      // Each site is back to its own categories: its new one gone, no other touched.
      expect((await categories(s)).map((c) => c.id).sort()).toEqual(before[s]);
    }
    // The change outside the run stands, and is still site one's to undo.
    const back = await runCli(['undo', '--yes'], { env: { ...env, CMS_SITE: 'one' } });
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect((await category('one', 1)).description).not.toContain('outside the run');
  });

  it('--site one and --site two on one CMS_JOURNAL: each undo takes back its own site\'s change', async () => {
    const env = fleet.env({ CMS_JOURNAL: journalFile() });
    for (const s of ['one', 'two']) {
      const out = await runCli(['invoke', JSON.stringify({ tool: 'update-category', params: { id: 1, description: unique(`desc ${s}`) } })], { env: { ...env, CMS_SITE: s } });
      expect(out.code, out.stderr).toBe(0);
    }
    const original = { one: '', two: '' } as Record<string, string>;
    for (const s of ['two', 'one']) {
      const listed = await runCli(['changes', '--json', '--all-sites'], { env: { ...env, CMS_SITE: s } });
      // Both sites' entries are in the one file, each naming its site.
      const entries = lines(listed.stdout);
      expect(new Set(entries.map((e) => e.site)).size).toBe(2);
      const own = entries.filter((e) => e.site === siteKey(fleet.sites.find((f) => f.name === s)!.url));
      original[s] = own.at(-1).before.terms['1'].description;
      const undo = await runCli(['undo', '--yes'], { env: { ...env, CMS_SITE: s } });
      expect(undo.code, undo.stdout + undo.stderr).toBe(0);
      expect((await category(s, 1)).description).toBe(original[s]);
    }
  });
});

describe('a fleet write killed mid-run (finding 6), undo --run --json and an unreachable site (finding 9)', { timeout: 300_000 }, () => {
  it('the killed site is named and its incomplete change reconciled; every selected site has its JSON line', async () => {
    const env = fleet.env({ CMS_JOURNAL: journalFile() });
    const description = unique('fleet crash');
    const was = { one: (await category('one', 1)).description, held: (await category('two', 1)).description };
    proxy.clear().inject({ method: 'POST', path: /\/wp\/v2\/categories\/1\b/, limit: 1, fault: { kind: 'hold' } });
    const child = spawn(process.execPath, [...cliArgs(), 'invoke', '--sites', 'one,held', '--json', JSON.stringify({ tool: 'update-category', params: { id: 1, description } })], {
      cwd: REPO_ROOT,
      env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise((resolve) => child.on('exit', (_c, signal) => resolve(signal)));
    // Site one done (its line printed), site "held" parked on its write: kill there.
    await proxy.whenHeld();
    await vi.waitFor(() => expect(out).toContain('"site":"one"'), { timeout: 60_000 });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    recordOutput(out + err);
    const runId = /run (\S+):/.exec(err)?.[1] as string;
    expect(runId).toBeTruthy();
    // The parked write reaches WordPress after its sender died.
    proxy.release();
    await vi.waitFor(async () => expect((await category('two', 1)).description).toBe(description), { timeout: 20_000 });
    proxy.clear();

    const dry = await runCli(['undo', '--run', runId, '--dry-run', '--sites', 'one,held'], { env });
    expect(dry.stdout).toContain('on one:');
    expect(dry.stdout).toContain('on held:');
    const undo = await runCli(['undo', '--run', runId, '--yes', '--json', '--sites', 'one,held,wrongpw'], { env, timeoutMs: 120_000 });
    const bySite = Object.fromEntries(lines(undo.stdout).map((l) => [l.site, l]));
    expect(Object.keys(bySite).sort()).toEqual(['held', 'one', 'wrongpw']);
    expect(bySite.one.ok).toBe(true);
    expect(bySite.held.ok).toBe(true);
    expect(bySite.wrongpw).toMatchObject({ ok: false, error: { code: 'authentication_failed' } });
    expect(undo.stderr).toContain(`cms-admin undo --run ${runId} --sites wrongpw`);
    expect(undo.code).toBe(1);
    expect((await category('one', 1)).description).toBe(was.one);
    expect((await category('two', 1)).description).toBe(was.held);
  });
});
