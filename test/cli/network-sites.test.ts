import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { recordSecret } from '../helpers/output-log.js';
import { type TestNetwork, networkState, testNetwork } from '../helpers/network.js';
import { testSite, unique } from '../helpers/site.js';

// `sites add NAME` on a multisite network (issue #39): each site of the network a profile
// (NAME/main, NAME/sports, …) on its own site URL, selected together as @NAME.
let net: TestNetwork;
let configHome: string;
let stateHome: string;

beforeAll(async () => {
  net = await testNetwork();
  configHome = mkdtempSync(path.join(tmpdir(), 'cms-net-config-'));
  stateHome = mkdtempSync(path.join(tmpdir(), 'cms-net-state-'));
}, 300_000);

const env = (extra: NodeJS.ProcessEnv = {}) => ({
  CMS_URL: undefined,
  CMS_USERNAME: undefined,
  CMS_APP_PASSWORD: undefined,
  CMS_SITE: undefined,
  CMS_JOURNAL: undefined,
  XDG_CONFIG_HOME: configHome,
  XDG_STATE_HOME: stateHome,
  ...extra,
});
const cli = (args: string[], input?: string) => runCli(args, { env: env(), timeoutMs: 120_000, ...(input ? { input } : {}) });
const jsonLines = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l));

/** Category names per site slug, read from WordPress itself (switch_to_blog), not through the toolkit. */
async function categoriesBySite(name: string): Promise<Record<string, number>> {
  return JSON.parse(
    await net.php(`
      $out = [];
      foreach (get_sites() as $s) {
        switch_to_blog($s->blog_id);
        $out[trim($s->path, '/') ?: 'main'] = count(get_terms(['taxonomy' => 'category', 'name' => ${JSON.stringify(name)}, 'hide_empty' => false]));
        restore_current_blog();
      }
      echo json_encode($out);`),
  );
}

describe('sites add on a multisite network', { timeout: 400_000 }, () => {
  it('saves every site as NAME/slug in @NAME; invoke --sites @NAME reads and writes each site on its own REST root; remove takes them all', async () => {
    const added = await cli(['sites', 'add', 'uni', '--url', net.url, '--username', net.username, '--group', 'clients'], net.appPassword);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('a multisite network');
    expect(added.stdout).toContain('Network uni: 4 of 4 site(s) saved');
    expect(added.stdout + added.stderr).not.toContain(net.appPassword);

    const list = await cli(['sites', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const rows = jsonLines(list.stdout);
    expect(rows.map((r) => [r.name, r.url, r.groups, r.reachable])).toEqual([
      ['uni/main', net.sites[''], ['uni', 'clients'], true],
      ['uni/sports', net.sites.sports, ['uni', 'clients'], true],
      ['uni/news', net.sites.news, ['uni', 'clients'], true],
      ['uni/arts', net.sites.arts, ['uni', 'clients'], true],
    ]);
    // Adding it again is refused without --replace (nothing changes).
    const again = await cli(['sites', 'add', 'uni', '--url', net.url, '--username', net.username], net.appPassword);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists already/);

    // A read on each site: its own users (core /wp/v2/users on that site's root).
    const read = await cli(['invoke', '--sites', '@uni', '--json', JSON.stringify({ tool: 'list-users', params: { role: 'editor' } })]);
    expect(read.code, read.stderr).toBe(0);
    const editors = Object.fromEntries(
      jsonLines(read.stdout).map((l) => [l.site, (l.result.items ?? l.result.users ?? []).map((u: { username: string }) => u.username)]),
    );
    expect(editors).toEqual({ 'uni/main': [], 'uni/sports': ['bob'], 'uni/news': ['carla'], 'uni/arts': [] });
    // The network form of list-users on a network's site.
    const everyone = await cli(['invoke', '--site', 'uni/arts', JSON.stringify({ tool: 'list-users', params: { network: true } })]);
    expect(everyone.code, everyone.stdout).toBe(0);

    // A write on each site, read back from each site in WordPress.
    const name = unique('Net Press');
    const wrote = await cli(['invoke', '--sites', '@uni', '--json', JSON.stringify({ tool: 'create-category', params: { name } })]);
    expect(wrote.code, wrote.stderr).toBe(0);
    expect(await categoriesBySite(name)).toEqual({ main: 1, sports: 1, news: 1, arts: 1 });
    const runId = jsonLines(wrote.stdout)[0].run as string;
    const undo = await cli(['undo', '--run', runId, '--yes', '--sites', '@uni']);
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(await categoriesBySite(name)).toEqual({ main: 0, sports: 0, news: 0, arts: 0 });

    // A network tool through one site's profile: acts on the network, read back from WordPress.
    const join = await cli([
      'invoke',
      '--site',
      'uni/sports',
      JSON.stringify({ tool: 'add-user-to-site', params: { user_id: net.users.ana, site: 'sports', role: 'author' } }),
    ]);
    expect(join.code, join.stdout).toBe(0);
    expect((await networkState(net)).ana?.sites.sports).toEqual(['author']);

    // A call on the whole network is sent once, not once a site: one grant, one line, one undo.
    const grant = await cli(['invoke', '--sites', '@uni', '--json', JSON.stringify({ tool: 'grant-super-admin', params: { user_id: net.users.erin } })]);
    expect(grant.code, grant.stdout + grant.stderr).toBe(0);
    const granted = jsonLines(grant.stdout);
    expect(granted.map((l) => [l.site, l.ok, l.result.was_super_admin])).toEqual([['uni/main', true, false]]);
    expect(grant.stderr).toContain('grant-super-admin acts on the whole network uni: sent once, to uni/main, for its 4 selected site(s)');
    expect((await networkState(net)).erin?.super_admin).toBe(true);
    const revoke = await cli(['undo', '--run', granted[0].run as string, '--yes', '--sites', '@uni']);
    expect(revoke.code, revoke.stdout + revoke.stderr).toBe(0);
    expect(revoke.stdout.trim().split('\n').filter((l) => l.includes('undo '))).toHaveLength(1);
    expect((await networkState(net)).erin?.super_admin).toBe(false);
    // list-users with network: true once (without it, each site's own users, as above).
    const all = await cli(['invoke', '--sites', 'uni/sports,uni/news', '--json', JSON.stringify({ tool: 'list-users', params: { network: true, search: 'erin' } })]);
    expect(all.code, all.stderr).toBe(0);
    expect(jsonLines(all.stdout).map((l) => [l.site, l.result.items.map((u: { username: string }) => u.username)])).toEqual([['uni/sports', ['erin']]]);

    const removed = await cli(['sites', 'remove', 'uni']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/Removed network "uni": its 4 site profile\(s\) uni\/main, uni\/sports, uni\/news, uni\/arts/);
    expect((await cli(['sites', 'list', '--offline', '--json'])).stdout).toMatch(/^No site profiles/);
  });

  it("a site administrator (not a super admin) cannot list the network's sites: the one site is saved, and why is said", async () => {
    const password = (
      await net.php(`echo WP_Application_Passwords::create_new_application_password(${net.users.dave}, ['name' => 'profiles test'])[0];`)
    ).trim();
    recordSecret(password);
    const out = await cli(['sites', 'add', 'daves', '--url', net.sites.sports as string, '--username', 'dave'], password);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/is a multisite network, but dave is not a super admin there \(cms_admin_not_super_admin\)/);
    expect(jsonLines((await cli(['sites', 'list', '--offline', '--json'])).stdout).map((r) => [r.name, r.url])).toEqual([
      ['daves', net.sites.sports],
    ]);
    expect((await cli(['sites', 'remove', 'daves'])).code).toBe(0);
  });

  it('a single site is still one profile', async () => {
    const site = testSite();
    const one = await cli(['sites', 'add', 'solo', '--url', site.url, '--username', site.username], site.appPassword);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).not.toContain('network');
    expect(jsonLines((await cli(['sites', 'list', '--offline', '--json'])).stdout).map((r) => r.name)).toEqual(['solo']);
    expect((await cli(['sites', 'remove', 'solo'])).stdout).toMatch(/Removed site "solo"/);
  });
});
