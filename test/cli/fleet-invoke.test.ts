import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackServer } from '../../src/evals/loopback.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { recordOutput } from '../helpers/output-log.js';
import { unique } from '../helpers/site.js';
import { cliArgs } from '../helpers/cli-bin.js';

// `invoke --sites` and `undo --run` (issue #38) on three real sandbox sites (one WordPress 6.1),
// a dead origin, a hanging one, one redirecting elsewhere and one refusing the password.
let fleet: Fleet;
let hanging: FaultProxy;
let redirecting: FaultProxy;
let trap: LoopbackServer;
const trapped: string[] = [];
const WRONG = 'wxyz wxyz wxyz wxyz wxyz wxyz';

beforeAll(async () => {
  fleet = await startFleet();
  const [one, two] = fleet.sites as [Fleet['sites'][0], Fleet['sites'][0]];
  // Where the redirecting site sends the client: it records any credentials that arrive.
  trap = await LoopbackServer.start((req, res) => {
    trapped.push(String(req.headers.authorization ?? ''));
    res.writeHead(404).end();
  });
  hanging = await new FaultProxy(two.url).start();
  hanging.inject({ fault: { kind: 'delay', ms: Number.POSITIVE_INFINITY } });
  redirecting = await new FaultProxy(one.url).start();
  redirecting.quirk({ redirect: { status: 301, to: trap.origin } });
  const profiles = [
    ...fleet.sites.map((s) => ({ name: s.name, url: s.url, username: s.username, appPassword: s.appPassword, groups: ['real'] })),
    { name: 'dead', url: 'http://127.0.0.1:9', username: 'admin', appPassword: WRONG, groups: [] },
    { name: 'hanging', url: hanging.url, username: two.username, appPassword: two.appPassword, groups: [] },
    { name: 'redirecting', url: redirecting.url, username: one.username, appPassword: one.appPassword, groups: [] },
    { name: 'wrongpw', url: one.url, username: one.username, appPassword: WRONG, groups: [] },
  ];
  const { writeProfiles } = await import('../../src/sites/store.js');
  writeProfiles({ version: 1, sites: profiles }, path.join(fleet.configHome, 'cms-admin', 'sites.json'));
}, 300_000);

afterAll(async () => {
  await hanging?.stop();
  await redirecting?.stop();
  await trap?.stop();
  await fleet?.stop();
});

const categoriesNamed = async (site: string, name: string) =>
  (await fleet.client(site).get<Array<{ name: string }>>('/wp/v2/categories', { search: name, per_page: 100 })).filter(
    (c) => c.name === name,
  );
const lines = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as { site: string; ok: boolean; result?: any; error?: any; run: string });
const env = () => fleet.env({ CMS_TIMEOUT_MS: '8000' });

describe('invoke --sites', { timeout: 400_000 }, () => {
  it('runs the call on every site: the real ones are written, each failing site is its own error by name, exit 1; undo --run takes it back everywhere', async () => {
    const name = unique('Fleet Press');
    const envelope = JSON.stringify({ tool: 'create-category', params: { name } });
    const out = await runCli(['invoke', '--sites', 'all', '--json', '--concurrency', '3', envelope], { env: env(), timeoutMs: 120_000 });
    expect(out.code, out.stderr).toBe(1);
    const by = Object.fromEntries(lines(out.stdout).map((l) => [l.site, l]));
    expect(Object.keys(by).sort()).toEqual(['dead', 'hanging', 'one', 'redirecting', 'three', 'two', 'wrongpw']);
    for (const site of ['one', 'two', 'three']) expect(by[site]?.ok, JSON.stringify(by[site])).toBe(true);
    expect(by.dead?.error.code).toBe('ECONNREFUSED');
    expect(by.hanging?.error.message).toMatch(/timed out|timeout/i);
    expect(by.redirecting?.error.code).toMatch(/redirect/);
    expect(by.wrongpw?.error.code).toBe('authentication_failed');
    // The fix it names is the profile's, not environment variables this run never read.
    expect(by.wrongpw?.error.message).toContain('site profile "wrongpw"');
    expect(by.wrongpw?.error.message).not.toContain('CMS_APP_PASSWORD');
    const runId = by.one?.run as string;
    expect(out.stderr).toContain(`run ${runId}: 3 ok, 4 failed`);
    // Each site's state read back from that site.
    for (const site of ['one', 'two', 'three']) expect(await categoriesNamed(site, name)).toHaveLength(1);
    // Credentials stay with their site: nothing reached the redirect's target; no output names a password.
    expect(trapped.filter(Boolean)).toEqual([]);
    for (const s of fleet.sites) expect(out.stdout + out.stderr).not.toContain(s.appPassword);

    const dry = await runCli(['undo', '--run', runId, '--dry-run', '--sites', '@real'], { env: env() });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`on one:\\n  undo \\S+ \\(create-category\\): delete the category "${name}"`));
    expect(await categoriesNamed('three', name)).toHaveLength(1);
    const refused = await runCli(['undo', '--run', runId, '--sites', '@real'], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/needs approval/);

    const undo = await runCli(['undo', '--run', runId, '--yes', '--sites', '@real'], { env: env() });
    expect(undo.code, undo.stderr + undo.stdout).toBe(0);
    for (const site of ['one', 'two', 'three']) {
      expect(undo.stdout).toMatch(new RegExp(`^${site}: undo (\\S+): deleted category \\d+ '[^']+' \\(it was created by change \\1\\)`, 'm'));
      expect(await categoriesNamed(site, name)).toHaveLength(0);
    }
    const again = await runCli(['undo', '--run', runId, '--yes', '--sites', '@real'], { env: env() });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/No change of run .* left to undo/);
  });

  it('--dry-run answers per site and writes nothing; a wrong --sites is exit 2 before any site is reached', async () => {
    const name = unique('Fleet Dry');
    const envelope = JSON.stringify({ tool: 'create-tag', params: { name } });
    const out = await runCli(['invoke', '--sites', '@real', '--dry-run', '--json', envelope], { env: env() });
    expect(out.code, out.stderr).toBe(0);
    const got = lines(out.stdout);
    expect(got.map((l) => [l.site, l.ok, l.result?.dry_run]).sort()).toEqual([['one', true, true], ['three', true, true], ['two', true, true]]);
    // Nothing was written: no undo hint (#52.8).
    expect(out.stderr).toMatch(/3 ok, 0 failed/);
    expect(out.stderr).not.toMatch(/undo/);
    for (const site of ['one', 'two', 'three'])
      expect((await fleet.client(site).get<unknown[]>('/wp/v2/tags', { search: name })).length).toBe(0);
    const wrong = await runCli(['invoke', '--sites', 'one,@nope', envelope], { env: env() });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/No group "@nope"/);
  });

  it('a read on several sites is one list with a site column first (table, csv), read back from each site (#52.2)', async () => {
    const name = unique('Fleet Table');
    for (const site of ['one', 'two', 'three']) await fleet.client(site).post('/wp/v2/tags', { name: `${name} ${site}` });
    const table = await runCli(['invoke', '--sites', '@real', 'get-cms-tags', `search=${name}`, '--format', 'table', '--fields', 'id,name'], { env: env() });
    expect(table.code, table.stderr).toBe(0);
    const [head, rule, ...rows] = table.stdout.trimEnd().split('\n');
    expect(head).toMatch(/^site\s+id\s+name$/);
    expect(rule).toMatch(/^─+\s+─+\s+─+$/);
    expect(rows.map((r) => r.split(/\s{2,}/)[0]).sort()).toEqual(['one', 'three', 'two']);
    for (const row of rows) {
      const [site, id, shown] = row.split(/\s{2,}/) as [string, string, string];
      const tag = await fleet.client(site).get<{ name: string }>(`/wp/v2/tags/${id}`);
      expect(shown).toBe(tag.name);
      expect(shown).toBe(`${name} ${site}`);
    }
    const csv = await runCli(['invoke', '--sites', '@real', 'get-cms-tags', `search=${name}`, '--format', 'csv', '--fields', 'name'], { env: env() });
    expect(csv.stdout.trim().split('\n').sort()).toEqual([`one,${name} one`, 'site,name', `three,${name} three`, `two,${name} two`].sort());
  });

  it('one audit log serves the fleet: each entry names its site and the run; audit --site shows that site only', async () => {
    const log = path.join(fleet.configHome, 'audit.jsonl');
    const envelope = JSON.stringify({ tool: 'create-tag', params: { name: unique('Fleet Audit') } });
    const out = await runCli(['invoke', '--sites', '@real', '--json', '--audit-log', log, envelope], { env: env() });
    expect(out.code, out.stderr).toBe(0);
    const runId = lines(out.stdout)[0]?.run;
    const two = await runCli(['audit', '--audit-log', log, '--site', 'two', '--json'], { env: env() });
    const entries = two.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(entries.map((e) => [e.site, e.run_id, e.tool, e.ok])).toEqual([['two', runId, 'create-tag', true]]);
    await runCli(['undo', '--run', runId as string, '--yes', '--sites', '@real'], { env: env() });
  });

  it('Ctrl-C starts no more sites and says which ran and which did not', async () => {
    hanging.clear();
    hanging.inject({ fault: { kind: 'hold' } });
    const child = spawn(
      process.execPath,
      [...cliArgs(), 'invoke', '--sites', 'hanging,one,two,three', '--concurrency', '1', '{"tool":"get-cms-tags","params":{"limit":1}}'],
      { cwd: REPO_ROOT, env: Object.fromEntries(Object.entries({ ...process.env, ...env() }).filter(([, v]) => v !== undefined)) },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await hanging.whenHeld();
    child.kill('SIGINT');
    // Wait for the CLI to say it stopped starting sites, then let the held site answer.
    for (let i = 0; i < 600 && !stderr.includes('interrupted'); i++) await new Promise((r) => setTimeout(r, 100));
    hanging.release();
    const code = await closed;
    recordOutput(stdout);
    recordOutput(stderr);
    expect(code).toBe(130);
    expect(stdout).toMatch(/^hanging\s+ok/m);
    for (const site of ['one', 'two', 'three']) expect(stdout).toMatch(new RegExp(`^${site}\\s+FAILED\\s+not_started`, 'm'));
    expect(stderr).toMatch(/1 ok, 0 failed, 3 not started \(one, two, three\)/);
  });
});
