import { beforeAll, describe, expect, it } from 'vitest';
import { callNetwork, recordingApprover, type TestNetwork, testNetwork } from '../../helpers/network.js';

/**
 * Issue #58, finding 3 on a network: a super admin's create-role with the network's capabilities
 * (create_sites, delete_sites, upgrade_network, setup_network) asked nothing, and
 * manage_network_users was named but not in plain words. One table of powerful capabilities now
 * covers them (capabilities.json): each is asked about in its plain words. Declined, nothing is
 * written (read back with PHP).
 */
let net: TestNetwork;
const slug = `netpow_${process.pid.toString(36)}${Date.now().toString(36)}`;
const roleOn = async (site: string) =>
  JSON.parse(
    await net.php(`$s = get_sites(['path' => '/${site}/', 'number' => 1])[0]; switch_to_blog($s->blog_id); $r = get_role('${slug}'); echo json_encode($r ? $r->capabilities : null); restore_current_blog();`),
  ) as Record<string, boolean> | null;

beforeAll(async () => {
  net = await testNetwork();
});

describe('the network’s capabilities are powers, asked about in plain words', () => {
  it('create-role with create_sites, delete_sites, upgrade_network, setup_network asks, naming each; declined, no role', async () => {
    const approver = recordingApprover(false);
    const caps = ['read', 'create_sites', 'delete_sites', 'upgrade_network', 'setup_network'];
    const out = await callNetwork(net.context('sports'), 'create-role', { slug, name: 'Network desk', capabilities: caps }, approver);
    expect(out).toMatchObject({ ok: false, error: { code: 'rejected_by_user' } });
    expect(approver.asked).toHaveLength(1);
    const question = approver.asked[0]?.summary ?? '';
    for (const words of [
      'create sites on the network (create_sites)',
      'delete sites of the network (delete_sites)',
      'upgrade the database of every site of the network (upgrade_network)',
      'set up or change the network itself (setup_network)',
    ])
      expect(question).toContain(words);
    expect(await roleOn('sports')).toBeNull();
  });

  it('manage_network_users on an account is named in plain words', async () => {
    const approver = recordingApprover(false);
    const out = await callNetwork(net.context('sports'), 'update-user-capabilities', { user_id: net.users.carla, add_capabilities: ['manage_network_users', 'level_10'] }, approver);
    expect(out).toMatchObject({ ok: false, error: { code: 'rejected_by_user' } });
    expect(approver.asked.map((q) => q.summary)).toEqual([
      expect.stringContaining('it grants power: edit and delete every account of the network (manage_network_users); pass old plugins’ administrator checks (user level 10) (level_10)'),
    ]);
    const own = await net.php(`$s = get_sites(['path' => '/sports/', 'number' => 1])[0]; switch_to_blog($s->blog_id); echo json_encode(get_userdata(${net.users.carla})->caps); restore_current_blog();`);
    expect(JSON.parse(own)).not.toHaveProperty('manage_network_users');
  });
});
