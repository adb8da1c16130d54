import { beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { invoke } from '../../../src/call/envelope.js';
import type { ApprovalRequest, ToolContext } from '../../../src/call/index.js';
import { testContext, testSite, wp } from '../../helpers/site.js';
import { makeAppPassword, makeUser, newIdentity, newPassword, readUser, wpPhp } from './helpers.js';

/**
 * Which roles an account may give is WordPress's own answer (the companion plugin's roles
 * route, 0.3.2), so a role above the caller's is refused before anyone is asked, and a role
 * WordPress lets an administrator give is not refused by the toolkit. Read back from the site.
 */
let promoter: ToolContext;

beforeAll(async () => {
  await wpPhp(
    `remove_role('cms_test_promoter2'); add_role('cms_test_promoter2', 'Promoter', ['read' => true, 'list_users' => true, 'edit_users' => true, 'promote_users' => true, 'create_users' => true]);` +
      ` remove_role('cms_test_uploader'); add_role('cms_test_uploader', 'Uploader', ['read' => true, 'upload_plugins' => true]);`,
  );
  const user = await makeUser({ prefix: 'promoter2', roles: ['cms_test_promoter2'] });
  promoter = createContext({ url: testSite().url, username: user.username, appPassword: await makeAppPassword(user.id) });
});

/** Through the approval path every surface uses; records each question; approves when `yes`. */
async function call(context: ToolContext, tool: string, params: Record<string, unknown>, yes: boolean) {
  const asked: ApprovalRequest[] = [];
  const outcome = await invoke({ tool, params }, context, {}, {
    approver: async (request) => {
      asked.push(request);
      return yes ? { approved: true } : { approved: false, reason: 'test says no' };
    },
  });
  return { outcome, asked };
}

describe('a role above the caller’s is refused at once: no one is asked', () => {
  it('set-user-role administrator, by an account that may promote users', async () => {
    const target = await makeUser();
    const { outcome, asked } = await call(promoter, 'set-user-role', { id: target.id, role: 'administrator' }, true);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'role_stronger_than_caller' } });
    expect(asked).toEqual([]);
    expect((await readUser(target.id)).roles).toEqual(['subscriber']);
  });

  it('create-user editor, by the same account', async () => {
    const { username, email } = newIdentity('promoted');
    const { outcome, asked } = await call(promoter, 'create-user', { username, email, password: newPassword(), role: 'editor' }, true);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'role_stronger_than_caller' } });
    expect(asked).toEqual([]);
    expect(await wp().get<unknown[]>('/wp/v2/users', { search: username, context: 'edit', _fields: 'id' })).toEqual([]);
  });
});

describe('a role WordPress lets the caller give is not refused', () => {
  it('an administrator gives a role with upload_plugins (a capability mapped to install_plugins): asked, approved, given', async () => {
    const target = await makeUser();
    const { outcome, asked } = await call(testContext(), 'set-user-role', { id: target.id, role: 'cms_test_uploader' }, true);
    expect(asked.map((r) => r.summary)).toEqual([expect.stringContaining('upload_plugins')]);
    expect(outcome).toMatchObject({ ok: true });
    expect((await readUser(target.id)).roles).toEqual(['cms_test_uploader']);
  });
});
