import { beforeAll, describe, expect, it } from 'vitest';
import { REFUSALS } from '../../../src/tools/refusals.js';
import { callNetwork, networkState, recordingApprover, type TestNetwork, testNetwork } from '../../helpers/network.js';

let net: TestNetwork;
beforeAll(async () => {
  net = await testNetwork();
});

describe('super admins (grant-super-admin, revoke-super-admin)', () => {
  it('granting super admin asks a person, naming what the user has on each site; declined, nothing changes', async () => {
    const carla = net.users.carla as number;
    const no = recordingApprover(false);
    const refused = await callNetwork(net.context(), 'grant-super-admin', { user_id: carla }, no);
    expect(refused.ok).toBe(false);
    expect(no.asked[0]?.summary).toBe(
      'make carla a super admin: every capability on every site of the network (today: sports: author; news: editor)',
    );
    expect((await networkState(net)).carla?.super_admin).toBe(false);

    const yes = recordingApprover();
    const done = await callNetwork(net.context(), 'grant-super-admin', { user_id: carla }, yes);
    expect(done).toMatchObject({ ok: true, result: { super_admin: true, was_super_admin: false } });
    expect((await networkState(net)).carla?.super_admin).toBe(true);
  });

  it('revoking asks a person and keeps the site roles', async () => {
    const carla = net.users.carla as number;
    await net.php(`grant_super_admin(${carla});`);
    const approver = recordingApprover();
    const done = await callNetwork(net.context(), 'revoke-super-admin', { user_id: carla }, approver);
    expect(done).toMatchObject({ ok: true, result: { super_admin: false, was_super_admin: true } });
    expect(approver.asked[0]?.summary).toContain('revoke super admin of carla; they keep their site roles (sports: author; news: editor)');
    const state = await networkState(net);
    expect(state.carla).toEqual({ super_admin: false, sites: { sports: ['author'], news: ['editor'] } });
  });

  it('the only super admin cannot be revoked: refused before anyone is asked, and by WordPress through the plugin', async () => {
    const approver = recordingApprover();
    const out = await callNetwork(net.context(), 'revoke-super-admin', { user_id: net.users.admin as number }, approver);
    expect(out).toMatchObject({ ok: false, error: { code: 'last_super_admin' } });
    expect(approver.asked).toEqual([]);
    const direct = await net
      .context()
      .client.delete(`/cms-admin/v1/network/super-admins/${net.users.admin}`)
      .catch((err: { code?: string }) => err.code);
    expect(direct).toBe('cms_admin_last_super_admin');
    expect((await networkState(net)).admin?.super_admin).toBe(true);
    // One code and one hint on every path (#52.10): the dry run (the review), the call without a
    // review (invoke, scripts: the plugin refuses), the call a person would be asked about.
    const paths = [
      await callNetwork(net.context(), 'revoke-super-admin', { user_id: net.users.admin as number, dry_run: true }),
      await callNetwork(net.context(), 'revoke-super-admin', { user_id: net.users.admin as number }),
      out,
    ];
    for (const refused of paths)
      expect(refused).toMatchObject({ ok: false, error: { code: 'last_super_admin', hint: REFUSALS.last_super_admin } });
    expect((await networkState(net)).admin?.super_admin).toBe(true);
  });
});
