import { beforeAll, describe, expect, it } from 'vitest';
import { callNetwork, networkState, postAuthors, recordingApprover, type TestNetwork, testNetwork } from '../../helpers/network.js';

let net: TestNetwork;
beforeAll(async () => {
  net = await testNetwork();
});

describe('delete-user on a network', () => {
  it("the single-site form (a toolkit not told it is on a network) refuses before anyone is asked, naming the form that can; nothing changes", async () => {
    const before = await networkState(net);
    const sports = { ...net.context('sports'), network: false };
    const approver = recordingApprover();
    for (const params of [{ id: net.users.bob as number, reassign_to: net.users.carla as number }, { id: net.users.bob as number, reassign_to: net.users.carla as number, dry_run: true }]) {
      const out = await callNetwork(sports, 'delete-user', params, approver);
      expect(out).toMatchObject({
        ok: false,
        error: { code: 'network_account', message: expect.stringContaining('only from the whole network'), hint: expect.stringContaining('where the network tools are listed') },
      });
    }
    expect(approver.asked).toEqual([]);
    expect(await networkState(net)).toEqual(before);
  });

  it('refuses without an heir, or with one who is not on every site with posts; nothing changes', async () => {
    const bob = net.users.bob as number;
    const none = await callNetwork(net.context(), 'delete-user', { id: bob }, recordingApprover());
    expect(none).toMatchObject({ ok: false, error: { code: 'content_needs_heir' } });
    // ana is on news only: she cannot take bob's Sports posts (the plugin refuses the whole call).
    const ana = await callNetwork(net.context(), 'delete-user', { id: bob, reassign_to: net.users.ana as number }, recordingApprover());
    expect(ana.ok).toBe(false);
    expect(JSON.stringify(ana)).toContain('sports (2)');
    expect((await networkState(net)).bob?.sites).toEqual({ main: ['subscriber'], sports: ['editor'], news: ['author'] });
  });

  it('asks a person naming each site, then deletes the account from the network, posts per site to the heir', async () => {
    const [bob, carla] = [net.users.bob as number, net.users.carla as number];
    const approver = recordingApprover();
    const done = await callNetwork(net.context(), 'delete-user', { id: bob, reassign_to: carla }, approver);
    expect(done).toMatchObject({ ok: true, result: { id: bob, deleted: true } });
    expect(approver.asked[0]?.summary).toBe(
      `delete bob's account from the whole network; main: leaves (subscriber); sports: leaves (editor), 2 post(s) to carla (user ${carla}); news: leaves (author), 2 post(s) to carla (user ${carla}); this cannot be undone`,
    );
    expect((await networkState(net)).bob).toBeUndefined();
    expect((await net.php(`echo get_userdata(${bob}) ? 'yes' : 'no';`)).trim()).toBe('no');
    const sports = await postAuthors(net, 'sports');
    const news = await postAuthors(net, 'news');
    expect([sports['Bob on Sports #1'], sports['Bob on Sports #2'], news['Bob on News #1'], news['Bob on News #2']]).toEqual([
      'carla',
      'carla',
      'carla',
      'carla',
    ]);
  });

  it('a super admin is never deleted: revoke first', async () => {
    const out = await callNetwork(net.context(), 'delete-user', { id: net.users.admin as number, reassign_to: net.users.erin as number }, recordingApprover());
    expect(out).toMatchObject({ ok: false, error: { code: 'delete_super_admin' } });
    expect((await networkState(net)).admin?.super_admin).toBe(true);
  });
});
