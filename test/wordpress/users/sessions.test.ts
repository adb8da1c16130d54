import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { postLoginForm } from '../../../src/evals/account-state.js';
import { type CallReview, findTool, reviewCall } from '../../../src/call/index.js';
import { callIn, restOnlyContext, testContext, testSite, wp } from '../../helpers/site.js';
import { expectNoSecretsLeaked, formLogin, makeUser, runError, runOk, secret, wpPhp } from './helpers.js';

afterAll(() => expectNoSecretsLeaked());

const site = () => testSite().url;

/** A browser login through wp-login.php: the cookie jar it leaves (the session tokens are secrets). */
async function browserLogin(username: string, password: string, userAgent: string): Promise<string> {
  const response = await postLoginForm(site(), username, password, userAgent);
  expect(response.status).toBe(302);
  const jar = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !/=deleted$|=\s*$/.test(c));
  for (const cookie of jar) secret(decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)));
  return jar.join('; ');
}

/** Whether the cookie jar opens wp-admin (200) rather than being sent to wp-login.php (302). */
async function opensWpAdmin(jar: string, userAgent: string): Promise<boolean> {
  const response = await fetch(`${site()}/wp-admin/profile.php`, {
    redirect: 'manual',
    headers: { cookie: jar, 'user-agent': userAgent },
  });
  // Read to its end: an unread body can end in undici's uncaught assert(!this.paused) on Node 22.
  await response.arrayBuffer();
  if (response.status === 302) expect(response.headers.get('location')).toContain('wp-login.php');
  return response.status === 200;
}

const storedSessions = async (id: number) =>
  Number((await wpPhp(`echo count(WP_Session_Tokens::get_instance(${id})->get_all());`)).trim());

describe('list-user-sessions and log-out-user', () => {
  it('a real browser login shows up (ip, user agent); log-out-user ends it and the user can log in again', async () => {
    const user = await makeUser({ roles: ['editor'] });
    const agent = 'Mozilla/5.0 (X11; Linux x86_64) StolenLaptop/1.0';
    const jar = await browserLogin(user.username, user.password, agent);
    expect(await opensWpAdmin(jar, agent)).toBe(true);

    const listed = await runOk('list-user-sessions', { user_id: user.id });
    expect(listed).toEqual({
      user_id: user.id,
      username: user.username,
      total: 1,
      items: [{ login: expect.any(String), expires: expect.any(String), ip: '127.0.0.1', user_agent: agent }],
    });
    expect(Date.parse(listed.items[0].expires)).toBeGreaterThan(Date.parse(listed.items[0].login));

    const review = (await reviewCall(findTool('log-out-user')!, testContext(), { user_id: user.id })) as CallReview;
    expect(review).toEqual({
      approval: 'required',
      summary: `end 1 login session(s) of ${user.username} (from 127.0.0.1); the account stays enabled; this cannot be undone`,
    });
    const result = await runOk('log-out-user', { user_id: user.id });
    expect(result).toEqual({ id: user.id, username: user.username, sessions_ended: 1, disabled: false });

    expect(await opensWpAdmin(jar, agent)).toBe(false);
    expect(await storedSessions(user.id)).toBe(0);
    expect((await formLogin(user.username, user.password)).ok).toBe(true);
    expect(await storedSessions(user.id)).toBe(1);
  });

  it('refuses to log out the toolkit’s own account', async () => {
    const me = await wp().get<{ id: number }>('/wp/v2/users/me');
    const refused = await runError('log-out-user', { user_id: me.id });
    expect(refused).toMatchObject({ code: 'cannot_log_out_self' });
    expect(refused.message).toContain('it cannot log out its own account');
    // The review finds it: no one is asked about a call that would fail.
    expect(await reviewCall(findTool('log-out-user')!, testContext(), { user_id: me.id })).toMatchObject({
      approval: 'fails',
      error: { code: 'cannot_log_out_self' },
    });
    const code = await wp()
      .delete(`/cms-admin/v1/users/${me.id}/sessions`)
      .then(
        () => 'ended',
        (err: { code?: string }) => err.code,
      );
    expect(code).toBe('cms_admin_cannot_log_out_self');
  });

  it('the session routes never send a token or verifier', async () => {
    const user = await makeUser();
    await browserLogin(user.username, user.password, 'curl/8');
    const verifiers: string[] = JSON.parse(
      await wpPhp(`echo json_encode(array_keys(get_user_meta(${user.id}, 'session_tokens', true) ?: []));`),
    );
    expect(verifiers).toHaveLength(1);
    const raw = JSON.stringify(await wp().get(`/cms-admin/v1/users/${user.id}/sessions`));
    for (const verifier of verifiers) expect(raw).not.toContain(verifier);
  });

  it('without the companion plugin: the install error naming the version needed', async () => {
    const user = await makeUser();
    const outcome = await callIn(restOnlyContext(), 'list-user-sessions', { user_id: user.id });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'companion_plugin_missing',
        message: expect.stringContaining('(0.3.0 or newer)'),
        hint: expect.stringContaining('Install'),
      },
    });
    const heir = await makeUser({ roles: ['author'] });
    for (const [tool, params, need] of [
      ['log-out-user', { user_id: user.id }, '0.3.0'],
      ['delete-user', { id: user.id, reassign_to: heir.id }, '0.3.1'],
    ] as const) {
      const outcome = await callIn(restOnlyContext(), tool, params);
      expect(outcome, tool).toMatchObject({
        ok: false,
        error: { code: 'companion_plugin_missing', message: expect.stringContaining(`(${need} or newer)`) },
      });
    }
    expect(await storedSessions(user.id)).toBe(0);
    expect(Number(await wpPhp(`echo get_userdata(${user.id}) ? 1 : 0;`))).toBe(1);
  });

  it('with an older companion plugin (0.2.0): "update the companion plugin", naming the version needed; nothing changes', async () => {
    const context = createContext(testSite());
    const index = context.client.index.bind(context.client);
    context.client.index = async () => ({ ...(await index()), cms_admin_companion: { version: '0.2.0' } });
    const user = await makeUser({ roles: ['author'] });
    const heir = await makeUser({ roles: ['author'] });
    expect((await formLogin(user.username, user.password)).ok).toBe(true);
    for (const [tool, params, need] of [
      ['list-user-sessions', { user_id: user.id }, '0.3.0'],
      ['log-out-user', { user_id: user.id }, '0.3.0'],
      ['delete-user', { id: user.id, reassign_to: heir.id }, '0.3.1'],
    ] as const) {
      const outcome = await callIn(context, tool, params);
      expect(outcome, tool).toMatchObject({
        ok: false,
        error: {
          code: 'companion_plugin_outdated',
          message: expect.stringContaining(`update the companion plugin (have 0.2.0, need ${need})`),
          hint: expect.stringContaining('Update the cms-admin-companion plugin'),
        },
      });
    }
    expect(await storedSessions(user.id)).toBe(1);
    expect(Number(await wpPhp(`echo get_userdata(${user.id}) ? 1 : 0;`))).toBe(1);
  });
});
