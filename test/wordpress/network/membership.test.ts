import { beforeAll, describe, expect, it } from 'vitest';
import { callNetwork, networkState, postAuthors, recordingApprover, type TestNetwork, testNetwork } from '../../helpers/network.js';

let net: TestNetwork;
beforeAll(async () => {
  net = await testNetwork();
});

describe('network membership (add-user-to-site, remove-user-from-site)', () => {
  it('adds an existing user to one more site with a role; the dry run changes nothing', async () => {
    const ana = net.users.ana as number;
    const dry = await callNetwork(net.context(), 'add-user-to-site', { user_id: ana, site: 'sports', role: 'author', dry_run: true });
    expect(dry).toMatchObject({ ok: true, result: { dry_run: true, needs_approval: false } });
    expect((await networkState(net)).ana?.sites).toEqual({ news: ['contributor'] });

    const approver = recordingApprover();
    const done = await callNetwork(net.context(), 'add-user-to-site', { user_id: ana, site: 'sports', role: 'author' }, approver);
    expect(done).toMatchObject({ ok: true, result: { username: 'ana', site: 'sports', roles: ['author'] } });
    // An author has no powerful capability: no one is asked.
    expect(approver.asked).toEqual([]);
    expect((await networkState(net)).ana?.sites).toEqual({ news: ['contributor'], sports: ['author'] });
  });

  it('a role with powerful capabilities on a site is asked of a person, naming the site and the role', async () => {
    const ana = net.users.ana as number;
    const no = recordingApprover(false);
    const refused = await callNetwork(net.context(), 'add-user-to-site', { user_id: ana, site: 'arts', role: 'administrator' }, no);
    expect(refused.ok).toBe(false);
    expect(no.asked[0]?.summary).toMatch(/add ana to site arts as administrator \(/);
    expect((await networkState(net)).ana?.sites.arts).toBeUndefined();

    const yes = recordingApprover();
    await callNetwork(net.context(), 'add-user-to-site', { user_id: ana, site: 'arts', role: 'administrator' }, yes);
    expect(yes.asked).toHaveLength(1);
    expect((await networkState(net)).ana?.sites.arts).toEqual(['administrator']);
  });

  it("a role is judged on the site it is given on: author with promote_users on one site is asked there, an unknown role refused", async () => {
    const erin = net.users.erin as number;
    const sportsId = JSON.parse(await net.php(`echo json_encode(get_id_from_blogname('sports'));`)) as number;
    // A role editor on sports gave its authors user management; the main site's author is stock.
    await net.php(`switch_to_blog(${sportsId}); get_role('author')->add_cap('promote_users'); restore_current_blog();`);
    try {
      const approver = recordingApprover(false);
      const out = await callNetwork(net.context(), 'add-user-to-site', { user_id: erin, site: 'sports', role: 'author' }, approver);
      expect(out).toMatchObject({ ok: false, error: { code: 'rejected_by_user' } });
      expect(approver.asked).toHaveLength(1);
      expect(approver.asked[0]?.summary).toMatch(/add erin to site sports as author \(promote_users\)/);
      expect((await networkState(net)).erin?.sites.sports).toBeUndefined();
    } finally {
      await net.php(`switch_to_blog(${sportsId}); get_role('author')->remove_cap('promote_users'); restore_current_blog();`);
    }
    const unknown = recordingApprover();
    const out = await callNetwork(net.context(), 'add-user-to-site', { user_id: erin, site: 'sports', role: 'chief' }, unknown);
    expect(out).toMatchObject({ ok: false, error: { code: 'unknown_role', message: 'There is no role "chief" on site sports.' } });
    expect(unknown.asked).toEqual([]);
  });

  it('adding someone already on the site is refused before anyone is asked', async () => {
    const approver = recordingApprover();
    const out = await callNetwork(net.context(), 'add-user-to-site', { user_id: net.users.bob as number, site: 'news', role: 'editor' }, approver);
    expect(out).toMatchObject({ ok: false, error: { code: 'already_member' } });
    expect(approver.asked).toEqual([]);
    expect((await networkState(net)).bob?.sites.news).toEqual(['author']);
  });

  it('removes a user from one site, their posts there to reassign_to; their other sites stay', async () => {
    const [bob, carla] = [net.users.bob as number, net.users.carla as number];
    const refused = await callNetwork(net.context(), 'remove-user-from-site', { user_id: bob, site: 'sports' }, recordingApprover());
    expect(refused).toMatchObject({ ok: false, error: { code: 'content_needs_heir' } });
    expect((await networkState(net)).bob?.sites.sports).toEqual(['editor']);

    const approver = recordingApprover();
    const done = await callNetwork(net.context(), 'remove-user-from-site', { user_id: bob, site: 'sports', reassign_to: carla }, approver);
    expect(done).toMatchObject({ ok: true, result: { posts_reassigned: 2, reassigned_to: carla } });
    expect(approver.asked[0]?.summary).toBe(
      `remove bob from site sports (was editor); 2 post(s) there go to carla (user ${carla}); their other sites stay`,
    );
    const state = await networkState(net);
    expect(state.bob?.sites).toEqual({ main: ['subscriber'], news: ['author'] });
    const sports = await postAuthors(net, 'sports');
    expect([sports['Bob on Sports #1'], sports['Bob on Sports #2']]).toEqual(['carla', 'carla']);
    expect((await postAuthors(net, 'news'))['Bob on News #1']).toBe('bob');
  });

  it('list-users with network: true gives every account its sites, role per site and super admin, page by page', async () => {
    const seen: Array<{ username: string; super_admin: boolean; sites: Record<string, string> }> = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const out = await callNetwork(net.context('news'), 'list-users', { network: true, limit: 2, ...(cursor ? { cursor } : {}) });
      if (!out.ok) throw new Error(JSON.stringify(out.error));
      const result = out.result as { items: typeof seen; next_cursor: string | null; total: number };
      seen.push(...result.items);
      if (!result.next_cursor) break;
      cursor = result.next_cursor;
    }
    const state = await networkState(net);
    expect(seen.map((u) => u.username).sort()).toEqual(Object.keys(state).sort());
    for (const user of seen) {
      expect(user.super_admin).toBe(state[user.username]?.super_admin);
      const roles = Object.fromEntries(Object.entries(state[user.username]?.sites ?? {}).map(([s, r]) => [s, r.join(',')]));
      expect(user.sites).toEqual(roles);
    }
    expect(seen.find((u) => u.username === 'admin')?.super_admin).toBe(true);
  });
});
