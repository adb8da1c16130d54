import { beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalRequest, decideCall, findTool } from '../../../src/call/index.js';
import { testContext, wp } from '../../helpers/site.js';
import { makeUser, newIdentity, newPassword, readUser, wpPhp } from './helpers.js';

/**
 * Security review, issue #26, finding 4: roles whose capabilities run code (edit_plugins,
 * install_plugins, …) were handed out without approval, so a model steered by text in the site
 * could give one. Every capability outside Author-and-below counts as powerful now, and the
 * question names it. Each call goes through the approval path every surface uses (decideCall),
 * with no one to approve, and the site is read back unchanged.
 */
const CODE_RUNNING = ['edit_plugins', 'edit_themes', 'install_plugins', 'upload_plugins', 'unfiltered_upload', 'edit_files'];
const roleFor = (cap: string) => `cms_test_only_${cap}`;

beforeAll(async () => {
  for (const cap of CODE_RUNNING) {
    await wpPhp(`remove_role('${roleFor(cap)}'); add_role('${roleFor(cap)}', 'Only ${cap}', ['read' => true, '${cap}' => true]);`);
  }
  await wpPhp(`remove_role('cms_test_writer'); add_role('cms_test_writer', 'Writer', ['read' => true, 'edit_posts' => true, 'upload_files' => true]);`);
});

/** Runs the approval step with no one to approve; returns the decision and the questions asked. */
async function decide(tool: string, params: Record<string, unknown>) {
  const asked: ApprovalRequest[] = [];
  const definition = findTool(tool);
  if (!definition) throw new Error(`no tool ${tool}`);
  const decision = await decideCall(definition, testContext(), params, async (request) => {
    asked.push(request);
    return { approved: false, reason: 'no one approved it (test).' };
  });
  return { decision, asked };
}

describe.each(CODE_RUNNING)('a role with exactly read + %s', (cap) => {
  it('set-user-role asks first, naming the capability; refused, the role stays', async () => {
    const user = await makeUser();
    const { decision, asked } = await decide('set-user-role', { id: user.id, role: roleFor(cap) });
    expect(decision).toMatchObject({ ok: false, error: { code: 'rejected_by_user' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.summary).toContain(`${roleFor(cap)} (${cap})`);
    expect((await readUser(user.id)).roles).toEqual(['subscriber']);
  });

  it('create-user asks first, naming the capability; refused, no user', async () => {
    const { username, email } = newIdentity('coderole');
    const params = { username, email, password: newPassword(), role: roleFor(cap) };
    const { decision, asked } = await decide('create-user', params);
    expect(decision.ok).toBe(false);
    expect(asked[0]?.summary).toContain(cap);
    const found = await wp().get<unknown[]>('/wp/v2/users', { search: username, context: 'edit', _fields: 'id' });
    expect(found).toEqual([]);
  });
});

describe('roles within Author and below', () => {
  it('need no approval', async () => {
    const user = await makeUser();
    for (const role of ['author', 'contributor', 'cms_test_writer']) {
      const { decision, asked } = await decide('set-user-role', { id: user.id, role });
      expect(decision.ok, role).toBe(true);
      expect(asked).toEqual([]);
    }
  });
});
