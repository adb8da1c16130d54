import { beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { findTool, fleetTools, runOnFleet } from '../../../src/call/index.js';
import { recordSecret } from '../../helpers/output-log.js';
import { callNetwork, recordingApprover, type TestNetwork, testNetwork } from '../../helpers/network.js';

/**
 * Roles on a multisite network (#50): each site has its own roles, the tools act on the site
 * whose address they are given; a super admin changes a role on several sites in one question
 * (a session of the network's sites), each site reviewed and written on its own.
 */
let net: TestNetwork;
const slug = `netrole_${process.pid.toString(36)}${Date.now().toString(36)}`;
const roleOn = async (site: string) =>
  JSON.parse(
    await net.php(`$s = get_sites(['path' => '/${site ? `${site}/` : ''}', 'number' => 1])[0] ?? get_site(1); switch_to_blog($s->blog_id); $r = get_role('${slug}'); echo json_encode($r ? $r->capabilities : null); restore_current_blog();`),
  ) as Record<string, boolean> | null;

beforeAll(async () => {
  net = await testNetwork();
});

describe('roles per site on a network', () => {
  it('create-role on one site makes the role there only', async () => {
    const out = await callNetwork(net.context('sports'), 'create-role', { slug, name: 'Net desk', clone_from: 'author', add_capabilities: ['manage_categories'] }, recordingApprover());
    expect(out).toMatchObject({ ok: true, result: { role: slug, created: true } });
    expect(await roleOn('sports')).toMatchObject({ manage_categories: true, publish_posts: true });
    expect(await roleOn('news')).toBeNull();
    expect(await roleOn('')).toBeNull();
  });

  it('a site administrator (not super admin) may not give a role what he lacks there', async () => {
    const created = await net.context('sports').client.post<{ password: string }>(`/wp/v2/users/${net.users.dave}/application-passwords`, { name: 'roles test' });
    recordSecret(created.password);
    const dave = { ...createContext({ url: net.sites.sports as string, username: 'dave', appPassword: created.password }), network: true };
    const out = await callNetwork(dave, 'update-role', { slug, add_capabilities: ['manage_network_users'] }, recordingApprover());
    expect(out).toMatchObject({ ok: false, error: { code: 'capability_beyond_caller', message: expect.stringContaining('manage_network_users') } });
    expect((await roleOn('sports'))?.manage_network_users).toBeUndefined();
  });

  it('a super admin changes a role on every site in one question, per site', async () => {
    const sites = ['', 'sports', 'news'].map((site) => ({ name: site || 'main', url: net.sites[site] as string, groups: ['net'], username: net.username, context: net.context(site) }));
    const [tool] = fleetTools([findTool('create-role')!]);
    const approver = recordingApprover();
    const outcome = await runOnFleet(tool!, { sites }, { slug: `${slug}_all`, name: 'Everywhere', clone_from: 'editor', site: 'all' }, approver);
    expect(approver.asked).toHaveLength(1);
    expect(approver.asked[0]?.summary).toMatch(/on 3 sites:\n- main: create the role Everywhere/);
    expect(approver.asked[0]?.summary).toContain('publish scripts and any HTML (unfiltered_html)');
    expect(outcome).toMatchObject({ ok: true });
    for (const site of ['', 'sports', 'news'])
      expect(JSON.parse(await net.php(`$s = get_sites(['path' => '/${site ? `${site}/` : ''}', 'number' => 1])[0]; switch_to_blog($s->blog_id); echo json_encode((bool) get_role('${slug}_all')); restore_current_blog();`))).toBe(true);
  });
});
