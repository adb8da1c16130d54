import { beforeAll, describe, expect, it } from 'vitest';
import { WordPressClient } from '../../../src/client/index.js';
import { createContext } from '../../../src/config.js';
import { isNetwork, networkToolsFor, selectTools, tools } from '../../../src/index.js';
import { recordSecret } from '../../helpers/output-log.js';
import { callNetwork, networkState, recordingApprover, type TestNetwork, testNetwork } from '../../helpers/network.js';

/**
 * dave administers the Sports site only. Through WordPress's own /wp/v2/users on his site and
 * through the plugin's network routes, he reaches no user of another site and changes nothing
 * beyond his site: WordPress refuses (is_user_member_of_blog, map_meta_cap's manage_network_users)
 * and the plugin asks is_super_admin().
 */
let net: TestNetwork;
let dave: WordPressClient;
let daveSports: ReturnType<typeof createContext>;
let daveAppPassword: string;
const code = (p: Promise<unknown>) => p.then(() => 'allowed', (err: { code?: string; status?: number }) => `${err.status} ${err.code}`);

beforeAll(async () => {
  net = await testNetwork();
  const created = await net
    .context('sports')
    .client.post<{ password: string }>(`/wp/v2/users/${net.users.dave}/application-passwords`, { name: 'cross-site test' });
  recordSecret(created.password);
  daveAppPassword = created.password;
  const login = { username: 'dave', appPassword: created.password };
  dave = new WordPressClient({ url: net.sites.sports as string, ...login });
  daveSports = { ...createContext({ url: net.sites.sports as string, ...login }), network: true };
});

describe('a site administrator is refused across sites', () => {
  it('through core REST on his own site: no user of another site to read, edit, promote or delete', async () => {
    const before = await networkState(net);
    const [erin, carla] = [net.users.erin, net.users.carla];
    expect(await code(dave.get(`/wp/v2/users/${erin}`, { context: 'edit' }))).toBe('404 rest_user_invalid_id');
    expect(await code(dave.post(`/wp/v2/users/${erin}`, { roles: ['subscriber'] }))).toBe('404 rest_user_invalid_id');
    // carla belongs to Sports too: her account is the network's, so dave may not edit or delete it.
    expect(await code(dave.post(`/wp/v2/users/${carla}`, { email: 'taken@example.com' }))).toBe('403 rest_cannot_edit');
    expect(await code(dave.delete(`/wp/v2/users/${carla}`, { force: true, reassign: net.users.dave as number }))).toMatch(/^(403|501) /);
    const listed = await dave.get<Array<{ id: number }>>('/wp/v2/users', { per_page: 100 });
    expect(listed.map((u) => u.id)).not.toContain(erin);
    expect(await networkState(net)).toEqual(before);
  });

  it('through the plugin: every network route answers that only a super admin may', async () => {
    const before = await networkState(net);
    const refused = '403 cms_admin_not_super_admin';
    expect(await code(dave.get('/cms-admin/v1/network/users'))).toBe(refused);
    expect(await code(dave.get(`/cms-admin/v1/network/users/${net.users.erin}`))).toBe(refused);
    expect(await code(dave.post('/cms-admin/v1/network/sites/news/users', { user: net.users.dave, role: 'administrator' }))).toBe(refused);
    expect(await code(dave.delete(`/cms-admin/v1/network/sites/news/users/${net.users.erin}`))).toBe(refused);
    expect(await code(dave.post(`/cms-admin/v1/network/super-admins/${net.users.dave}`))).toBe(refused);
    expect(await code(dave.delete(`/cms-admin/v1/network/users/${net.users.erin}`))).toBe(refused);
    expect(await networkState(net)).toEqual(before);
  });

  it('through the toolkit: the network tools answer with WordPress refusal, and nothing changes', async () => {
    const before = await networkState(net);
    const out = await callNetwork(daveSports, 'grant-super-admin', { user_id: net.users.dave as number }, recordingApprover());
    expect(out).toMatchObject({ ok: false, error: { code: 'cms_admin_not_super_admin' } });
    const add = await callNetwork(daveSports, 'add-user-to-site', { user_id: net.users.dave as number, site: 'news', role: 'administrator' }, recordingApprover());
    expect(add.ok).toBe(false);
    expect(await networkState(net)).toEqual(before);
  });

  it('the tool list: the network tools are offered to a super admin only', async () => {
    const admin = new WordPressClient({ url: net.sites.sports as string, username: net.username, appPassword: net.appPassword });
    expect([await isNetwork(dave), await networkToolsFor(dave)]).toEqual([true, false]);
    expect([await isNetwork(admin), await networkToolsFor(admin)]).toEqual([true, true]);
    const names = selectTools(tools, { network: await networkToolsFor(dave) }).map((t) => t.name);
    expect(names).not.toContain('grant-super-admin');
    expect(names).toContain('set-user-role');
  });

  it("list-users as the site administrator: every account of his site, once each, those he may not edit by name only and said so", async () => {
    const daveOwn = createContext({ url: net.sites.sports as string, username: 'dave', appPassword: daveAppPassword });
    const adminSports = net.context('sports');
    const everyone = (await callNetwork({ ...adminSports, network: false }, 'list-users', { limit: 100 })) as { ok: true; result: { items: Array<{ id: number }> } };
    const ids = everyone.result.items.map((u) => u.id);
    expect(ids).toContain(net.users.carla);

    const pages: Array<{ total: number; items: Array<{ id: number; username?: string; may_edit?: false }>; next_cursor: string | null; note?: string }> = [];
    let cursor: string | undefined;
    do {
      const out = await callNetwork(daveOwn, 'list-users', { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(out.ok, JSON.stringify(out)).toBe(true);
      const page = (out as { result: (typeof pages)[number] }).result;
      pages.push(page);
      cursor = page.next_cursor ?? undefined;
    } while (cursor && pages.length < 10);
    const seen = pages.flatMap((p) => p.items);
    expect(seen.map((u) => u.id)).toEqual(ids);
    expect(pages[0]?.total).toBe(ids.length);
    // He may edit himself only: his row is whole, the others' are a name and may_edit false.
    expect(seen.find((u) => u.id === net.users.dave)?.username).toBe('dave');
    const carla = seen.find((u) => u.id === net.users.carla);
    expect(carla).toEqual({ id: net.users.carla, name: 'Carla', may_edit: false });
    expect(pages.find((p) => p.items.includes(carla as never))?.note).toMatch(/may_edit false: .*only a super admin edits network accounts/);
  });

  it('list-app-passwords without the plugin, as the site administrator: every account of his site checked once, the others said skipped', async () => {
    class WithoutCompanion extends WordPressClient {
      override async namespaces(): Promise<string[]> {
        return (await super.namespaces()).filter((ns) => ns !== 'cms-admin/v1');
      }
    }
    const login = { url: net.sites.sports as string, username: 'dave', appPassword: daveAppPassword };
    const bare = { ...createContext(login), client: new WithoutCompanion(login) };
    const members = ((await callNetwork({ ...net.context('sports'), network: false }, 'list-users', { limit: 100 })) as { ok: true; result: { total: number } }).result.total;
    const out = await callNetwork(bare, 'list-app-passwords', {});
    expect(out.ok, JSON.stringify(out)).toBe(true);
    const result = (out as { ok: true; result: { items: Array<{ username: string }>; accounts_checked: number; accounts_total: number; note?: string; next_cursor: string | null } }).result;
    expect([result.accounts_checked, result.accounts_total, result.next_cursor]).toEqual([members, members, null]);
    expect(new Set(result.items.map((i) => i.username))).toEqual(new Set(['dave']));
    expect(result.note).toBe(`${members - 1} account(s) skipped: WordPress does not let you list their application passwords.`);
  });

  it("the site administrator's edit of a network account: WordPress refuses, and the hint names a super admin", async () => {
    const before = await networkState(net);
    const daveOwn = createContext({ url: net.sites.sports as string, username: 'dave', appPassword: daveAppPassword });
    const out = await callNetwork(daveOwn, 'set-user-role', { id: net.users.carla as number, role: 'editor' });
    expect(out).toMatchObject({ ok: false, error: { code: 'rest_forbidden_context', hint: expect.stringContaining('a super admin’s') } });
    expect(await networkState(net)).toEqual(before);
  });
});
