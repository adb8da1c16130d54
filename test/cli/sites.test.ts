import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { unique } from '../helpers/site.js';

// Site profiles and --site (issue #38) on three real sandbox sites (one WordPress 6.1) and a dead origin.
let fleet: Fleet;
const DEAD = 'http://127.0.0.1:9';

beforeAll(async () => {
  fleet = await startFleet();
}, 300_000);
afterAll(async () => fleet?.stop());

const add = (name: string, url: string, username: string, password: string, ...flags: string[]) =>
  runCli(['sites', 'add', name, '--url', url, '--username', username, ...flags], { input: password, env: fleet.env() });

const tagsNamed = async (site: string, name: string) =>
  (await fleet.client(site).get<Array<{ name: string }>>('/wp/v2/tags', { search: name, per_page: 100 })).filter(
    (t) => t.name === name,
  );

describe('sites add / list / check / remove', { timeout: 400_000 }, () => {
  it('adds each site after logging in (password from stdin or CMS_APP_PASSWORD), in a 0600 file, and lists them without a secret', async () => {
    const [one, two, three] = fleet.sites as [Fleet['sites'][0], Fleet['sites'][0], Fleet['sites'][0]];
    expect((await add('one', one.url, one.username, one.appPassword, '--group', 'clients')).code).toBe(0);
    // From the environment, stdin empty.
    const viaEnv = await runCli(['sites', 'add', 'two', '--url', two.url, '--username', two.username, '--group', 'clients'], {
      env: fleet.env({ CMS_APP_PASSWORD: two.appPassword }),
    });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    const old = await add('three', three.url, three.username, three.appPassword, '--group', 'old');
    expect(old.code, old.stderr).toBe(0);
    expect(old.stdout).toMatch(/WordPress 6\.1\.\d+/);

    const file = path.join(fleet.configHome, 'cms-admin', 'sites.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).sites.map((s: { name: string }) => s.name)).toEqual(['one', 'two', 'three']);

    const list = await runCli(['sites', 'list'], { env: fleet.env() });
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^name\s+url\s+user\s+groups\s+wordpress\s+plugin\s+reachable$/);
    expect(rows[1]).toMatch(new RegExp(`^one\\s+${one.url}\\s+admin\\s+@clients\\s+\\d+\\.\\d+\\.\\d+\\s+\\d+\\.\\d+\\.\\d+\\s+yes$`));
    expect(rows[3]).toMatch(/^three\s+\S+\s+admin\s+@old\s+6\.1\.\d+\s+\d+\.\d+\.\d+\s+yes$/);
    for (const site of fleet.sites) expect(list.stdout + list.stderr).not.toContain(site.appPassword);
  });

  it('refuses a site it cannot reach or log in to (nothing saved) unless --no-check; check names the dead one', async () => {
    const one = fleet.sites[0] as Fleet['sites'][0];
    const wrong = await add('wrong', one.url, one.username, 'abcd efgh ijkl mnop qrst uvwx');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/Not added: wrong .*authentication_failed/);
    const dead = await add('dead', DEAD, 'admin', 'abcd efgh ijkl mnop qrst uvwx');
    expect(dead.code).toBe(1);
    expect(dead.stderr).toMatch(/Not added: dead .*ECONNREFUSED/);
    const listed = await runCli(['sites', 'list', '--offline'], { env: fleet.env() });
    expect(listed.stdout).not.toMatch(/^(wrong|dead)\s/m);

    expect((await add('dead', DEAD, 'admin', 'abcd efgh ijkl mnop qrst uvwx', '--no-check', '--group', 'clients')).code).toBe(0);
    const check = await runCli(['sites', 'check', '@clients', '--json'], { env: fleet.env() });
    expect(check.code).toBe(1);
    const lines = check.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.name, l.reachable])).toEqual([['one', true], ['two', true], ['dead', false]]);
    expect(lines[2].error.code).toBe('ECONNREFUSED');
    // `sites list` lists (the table names the dead site): exit 0 (#52.7).
    const list = await runCli(['sites', 'list'], { env: fleet.env() });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^dead\s.*no: ECONNREFUSED/m);

    const unknown = await runCli(['sites', 'check', 'on'], { env: fleet.env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No site "on".*did you mean one/);
    expect((await runCli(['sites', 'remove', 'dead'], { env: fleet.env() })).code).toBe(0);
    expect((await runCli(['sites', 'remove', 'dead'], { env: fleet.env() })).code).toBe(1);
  });
});

describe('--site NAME on the commands that reach a site', { timeout: 400_000 }, () => {
  it('invoke, changes and undo --site work on that site only (its own journal); CMS_SITE does the same', async () => {
    const name = unique('Fleet site tag');
    const made = await runCli(['invoke', '--site', 'three', JSON.stringify({ tool: 'create-tag', params: { name } })], {
      env: fleet.env(),
    });
    expect(made.code, made.stdout).toBe(0);
    expect(await tagsNamed('three', name)).toHaveLength(1);
    expect(await tagsNamed('one', name)).toHaveLength(0);

    const changes = await runCli(['changes', '--json', '-n', '1'], { env: fleet.env({ CMS_SITE: 'three' }) });
    expect(JSON.parse(changes.stdout.trim()).summary).toContain(name);
    const onOne = await runCli(['changes', '--json', '-n', '5', '--site', 'one'], { env: fleet.env() });
    expect(onOne.stdout).not.toContain(name);

    const undo = await runCli(['undo', '--site', 'three', '--yes'], { env: fleet.env() });
    expect(undo.code, undo.stderr).toBe(0);
    expect(await tagsNamed('three', name)).toHaveLength(0);
  });

  it('an unknown --site is a usage error before anything runs (exit 2)', async () => {
    const out = await runCli(['invoke', '--site', 'nope', '{"tool":"get-cms-tags"}'], { env: fleet.env() });
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout).error.message).toMatch(/No site profile "nope"/);
  });
});
