import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../src/call/index.js';
import { callNetwork, networkState, postAuthors, recordingApprover, type TestNetwork, testNetwork } from '../../helpers/network.js';

/** Each network write, then undo-change (the last change), every effect read back from WordPress. */
let net: TestNetwork;
let context: ToolContext;
beforeAll(async () => {
  net = await testNetwork();
  context = net.journalled(join(mkdtempSync(join(tmpdir(), 'net-undo-')), 'changes.jsonl'));
});

/** The last change undone; `asked`: the question its approval was given to. */
async function undoLast() {
  const approver = recordingApprover();
  const out = await callNetwork(context, 'undo-change', {}, approver);
  if (!out.ok) throw new Error(JSON.stringify(out.error));
  expect(approver.asked).toHaveLength(1);
  return { ...(out.result as { conflicts?: Array<{ item: string; reason: string }>; restored?: string[] }), asked: approver.asked[0]!.summary };
}

describe('undo of the network writes', () => {
  it('add-user-to-site: the undo takes the user off the site again', async () => {
    const before = await networkState(net);
    await callNetwork(context, 'add-user-to-site', { user_id: net.users.ana as number, site: 'arts', role: 'editor' }, recordingApprover());
    expect((await networkState(net)).ana?.sites.arts).toEqual(['editor']);
    const undo = await undoLast();
    // The question says what the undo does, in remove-user-from-site's words (it said "nothing to write").
    expect(undo.asked).toMatch(/^undo \S+ \(add-user-to-site\): remove ana from site \d+ \(was editor\); their other sites stay$/);
    expect(await networkState(net)).toEqual(before);
  });

  it('remove-user-from-site: the undo puts the user back with their role; the reassigned posts stay, and the entry says so', async () => {
    const before = await networkState(net);
    const done = await callNetwork(context, 'remove-user-from-site', { user_id: net.users.bob as number, site: 'news', reassign_to: net.users.carla as number }, recordingApprover());
    expect(done.ok).toBe(true);
    expect((await networkState(net)).bob?.sites.news).toBeUndefined();
    const listed = await callNetwork(context, 'list-changes', {});
    expect(JSON.stringify(listed)).toContain('removed bob from site news');
    const undo = await undoLast();
    expect(undo.asked).toMatch(/^undo \S+ \(remove-user-from-site\): add bob to site \d+ as \w+/);
    expect(await networkState(net)).toEqual(before);
    expect((await postAuthors(net, 'news'))['Bob on News #1']).toBe('carla');
  });

  it('grant-super-admin and revoke-super-admin: each undo puts the super admin state back', async () => {
    const erin = net.users.erin as number;
    await callNetwork(context, 'grant-super-admin', { user_id: erin }, recordingApprover());
    expect((await networkState(net)).erin?.super_admin).toBe(true);
    const ungrant = await undoLast();
    expect(ungrant.asked).toMatch(/^undo \S+ \(grant-super-admin\): revoke super admin of erin; they keep their site roles/);
    expect((await networkState(net)).erin?.super_admin).toBe(false);

    await net.php(`grant_super_admin(${erin});`);
    await callNetwork(context, 'revoke-super-admin', { user_id: erin }, recordingApprover());
    expect((await networkState(net)).erin?.super_admin).toBe(false);
    const unrevoke = await undoLast();
    // Giving back every capability on every site was asked as "nothing to write".
    expect(unrevoke.asked).toMatch(/^undo \S+ \(revoke-super-admin\): make erin a super admin: every capability on every site/);
    expect((await networkState(net)).erin).toMatchObject({ super_admin: true, sites: { news: ['administrator'], arts: ['subscriber'] } });
  });

  it('remove-user-from-site of an account with two roles there: the undo gives back one, and says which it could not', async () => {
    const carla = net.users.carla as number;
    const arts = JSON.parse(await net.php(`echo json_encode(get_id_from_blogname('arts'));`)) as number;
    await net.php(`add_user_to_blog(${arts}, ${carla}, 'author'); (new WP_User(${carla}, '', ${arts}))->add_role('contributor');`);
    expect((await networkState(net)).carla?.sites.arts).toEqual(['author', 'contributor']);
    const done = await callNetwork(context, 'remove-user-from-site', { user_id: carla, site: 'arts' }, recordingApprover());
    expect(done.ok).toBe(true);
    const undo = await undoLast();
    expect(undo.asked).toMatch(/add carla to site \d+ as author/);
    expect(undo.asked).toMatch(/left as they are: network user \d+ \(carla\): not given back: role contributor on site \d+/);
    // What the answer says is what WordPress holds.
    expect((await networkState(net)).carla?.sites.arts).toEqual(['author']);
    expect(undo.restored?.join()).toMatch(/back on site \d+ as author/);
    expect(undo.conflicts?.map((c) => c.reason).join()).toMatch(/not given back: role contributor/);
    await net.php(`remove_user_from_blog(${carla}, ${arts});`);
  });
});
