import { afterAll, describe, expect, it } from 'vitest';
import { WordPressClient } from '../../../src/client/index.js';
import { invoke } from '../../../src/call/envelope.js';
import type { ToolContext, ToolOutcome } from '../../../src/call/index.js';
import { testContext, testSite } from '../../helpers/site.js';
import { expectNoSecretsLeaked, makeUser, newIdentity, newPassword, readUser, runOk } from './helpers.js';

/** The real sandbox site, seen by a client that does not find the companion plugin's namespace. */
class WithoutCompanion extends WordPressClient {
  override async namespaces(): Promise<string[]> {
    return (await super.namespaces()).filter((ns) => ns !== 'cms-admin/v1');
  }
}

const context: ToolContext = { client: new WithoutCompanion(testSite()), secrets: testContext().secrets };
const outcomes: ToolOutcome[] = [];
async function bare(tool: string, params?: Record<string, unknown>): Promise<ToolOutcome> {
  const outcome = await invoke(params ? { tool, params } : { tool }, context);
  outcomes.push(outcome);
  return outcome;
}
const errorOf = (outcome: ToolOutcome) => (outcome.ok ? undefined : outcome.error);
const resultOf = (outcome: ToolOutcome) => (outcome.ok ? (outcome.result as Record<string, any>) : undefined);

describe('user tools on a site without the companion plugin', () => {
  afterAll(() => {
    expect(JSON.stringify(outcomes)).not.toContain('[REDACTED]');
    expectNoSecretsLeaked();
  });

  it.each([
    ['disable-user', { reason: 'x' }],
    ['enable-user', {}],
    ['reset-user-password', {}],
  ])('%s fails with companion_plugin_missing and how to install it, changing nothing', async (tool, extra) => {
    const user = await makeUser();
    const error = errorOf(await bare(tool, { id: user.id, ...extra }));
    expect(error?.code).toBe('companion_plugin_missing');
    expect(error?.message).toContain('cms-admin-companion');
    expect(error?.hint).toContain('cms-admin plugin install --wp-content');
    expect(error?.hint).toContain('cms-admin plugin zip');
    expect((await readUser(user.id)).cms_disabled).toBe(false);
  });

  it.each([
    ['disable-user', { reason: 'x' }],
    ['enable-user', {}],
  ])('%s dry run answers companion_plugin_missing too (no preview of a call that cannot run)', async (tool, extra) => {
    const user = await makeUser();
    const error = errorOf(await bare(tool, { id: user.id, ...extra, dry_run: true }));
    expect(error?.code).toBe('companion_plugin_missing');
    expect((await readUser(user.id)).cms_disabled).toBe(false);
  });

  it('list-user-roles falls back to WordPress’s five default roles, labelled as such', async () => {
    const result = resultOf(await bare('list-user-roles'));
    expect(result?.source).toBe('wordpress-defaults');
    expect(result?.note).toMatch(/default roles.*not necessarily this site's/);
    // Ordered by slug, like every listing, so a cursor can continue it.
    expect(result?.items.map((r: { role: string }) => r.role)).toEqual([
      'administrator',
      'author',
      'contributor',
      'editor',
      'subscriber',
    ]);
    expect(result?.total).toBe(5);
  });

  it('list-users filters dates without the plugin’s tie-broken ordering (reads every page)', async () => {
    const result = resultOf(await bare('list-users', { registered_after: '2025-06-01' }));
    const withPlugin = await runOk('list-users', { registered_after: '2025-06-01' });
    const ids = (items: Array<{ id: number }>) => items.map((u) => u.id).sort((a, b) => a - b);
    expect(result?.items.length).toBeGreaterThan(0);
    expect(ids(result?.items)).toEqual(ids(withPlugin.items));
  });

  it('set-user-role and create-user still work; WordPress itself refuses unknown roles', async () => {
    const user = await makeUser();
    expect(resultOf(await bare('set-user-role', { id: user.id, role: 'author' }))?.roles).toEqual(['author']);
    const error = errorOf(await bare('set-user-role', { id: user.id, role: 'pirate' }));
    expect(error).toMatchObject({ code: 'unknown_role', hint: expect.stringContaining('default roles') });
    const { username, email } = newIdentity('bare');
    const created = resultOf(await bare('create-user', { username, email, password: newPassword(), role: 'editor' }));
    expect(created).toMatchObject({ username, roles: ['editor'] });
  });

  it("asks before any role is given: without the plugin no role's capabilities on this site are known", async () => {
    const user = await makeUser();
    const asked: string[] = [];
    const no = {
      approver: async (request: { summary: string }) => {
        asked.push(request.summary);
        return { approved: false as const, reason: 'no' };
      },
    };
    const set = await invoke({ tool: 'set-user-role', params: { id: user.id, role: 'author' } }, context, undefined, no);
    expect(errorOf(set)?.code).toBe('rejected_by_user');
    const { username, email } = newIdentity('bare');
    const made = await invoke({ tool: 'create-user', params: { username, email, password: newPassword(), role: 'subscriber' } }, context, undefined, no);
    expect(errorOf(made)?.code).toBe('rejected_by_user');
    expect(asked).toEqual([
      `give ${user.username} the role author (capabilities of author on this site unknown without the companion plugin) (was: subscriber)`,
      expect.stringMatching(/subscriber \(capabilities of subscriber on this site unknown without the companion plugin\)/),
    ]);
    expect((await readUser(user.id)).roles).toEqual(['subscriber']);
  });
});
