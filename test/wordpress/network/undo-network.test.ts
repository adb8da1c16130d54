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

async function undoLast() {
  const out = await callNetwork(context, 'undo-change', {}, recordingApprover());
  if (!out.ok) throw new Error(JSON.stringify(out.error));
  return out.result as { conflicts?: unknown[]; restored?: string[] };
}

describe('undo of the network writes', () => {
  it('add-user-to-site: the undo takes the user off the site again', async () => {
    const before = await networkState(net);
    await callNetwork(context, 'add-user-to-site', { user_id: net.users.ana as number, site: 'arts', role: 'editor' }, recordingApprover());
    expect((await networkState(net)).ana?.sites.arts).toEqual(['editor']);
    await undoLast();
    expect(await networkState(net)).toEqual(before);
  });

  it('remove-user-from-site: the undo puts the user back with their role; the reassigned posts stay, and the entry says so', async () => {
    const before = await networkState(net);
    const done = await callNetwork(context, 'remove-user-from-site', { user_id: net.users.bob as number, site: 'news', reassign_to: net.users.carla as number }, recordingApprover());
    expect(done.ok).toBe(true);
    expect((await networkState(net)).bob?.sites.news).toBeUndefined();
    const listed = await callNetwork(context, 'list-changes', {});
    expect(JSON.stringify(listed)).toContain('removed bob from site news');
    await undoLast();
    expect(await networkState(net)).toEqual(before);
    expect((await postAuthors(net, 'news'))['Bob on News #1']).toBe('carla');
  });

  it('grant-super-admin and revoke-super-admin: each undo puts the super admin state back', async () => {
    const erin = net.users.erin as number;
    await callNetwork(context, 'grant-super-admin', { user_id: erin }, recordingApprover());
    expect((await networkState(net)).erin?.super_admin).toBe(true);
    await undoLast();
    expect((await networkState(net)).erin?.super_admin).toBe(false);

    await net.php(`grant_super_admin(${erin});`);
    await callNetwork(context, 'revoke-super-admin', { user_id: erin }, recordingApprover());
    expect((await networkState(net)).erin?.super_admin).toBe(false);
    await undoLast();
    expect((await networkState(net)).erin).toMatchObject({ super_admin: true, sites: { news: ['administrator'], arts: ['subscriber'] } });
  });
});
