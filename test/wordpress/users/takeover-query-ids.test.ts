import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { testSite } from '../../helpers/site.js';
import { restAs } from './browser.js';
import { expectNoSecretsLeaked, makeAppPassword, makeUser, runIn, wpPhp } from './helpers.js';

/**
 * Issue #33, finding 5: `DELETE /wp/v2/users/24?id=<self>&reassign=1&force=true` deleted the
 * caller. WordPress merges a request's parameters and a query (or body) `id` wins over the
 * route's (WP_REST_Request::get_parameter_order()), so core's handlers act on the query's id
 * while the plugin's guards read the route's. Here an administrator's own application password
 * names itself that way on every route WordPress lets the query override; each request is
 * refused and the site reads back unchanged.
 */
afterAll(() => expectNoSecretsLeaked());

/** What the attacks could change, read from WordPress itself (PHP), never through REST. */
const snapshot = async (id: number) =>
  JSON.parse(
    await wpPhp(`$u = get_userdata(${id}); echo json_encode($u ? [$u->user_login, $u->roles,
      wp_list_pluck(WP_Application_Passwords::get_user_application_passwords(${id}), 'uuid'),
      get_user_meta(${id}, '_cms_admin_disabled', true)] : null);`),
  );

const uuids = async (id: number) =>
  JSON.parse(
    await wpPhp(`echo json_encode(wp_list_pluck(WP_Application_Passwords::get_user_application_passwords(${id}), 'uuid'));`),
  ) as string[];

describe('the guards read the ids WordPress acts on, not the route’s', () => {
  it('an administrator naming itself in the query or body is refused on every overridable route; nothing changes', async () => {
    const self = await makeUser({ prefix: 'qid', roles: ['administrator'] });
    const who = { username: self.username, appPassword: await makeAppPassword(self.id) };
    const [own] = await uuids(self.id);
    await makeAppPassword(self.id); // a decoy: the route names it, the query names the one in use
    const decoy = (await uuids(self.id)).find((uuid) => uuid !== own) as string;
    const [other, heir] = [await makeUser({ prefix: 'qother' }), await makeUser({ roles: ['author'] })];
    await makeAppPassword(other.id);
    const [otherUuid] = await uuids(other.id);
    const before = [await snapshot(self.id), await snapshot(other.id)];
    const attempts: Array<[string, string, unknown, string | number]> = [
      ['DELETE', `/wp/v2/users/${other.id}?id=${self.id}&reassign=${heir.id}&force=true`, undefined, 'cms_admin_cannot_delete_self'],
      ['DELETE', `/WP/V2/USERS/${other.id}?id=${self.id}&reassign=${heir.id}&force=true`, undefined, 'cms_admin_cannot_delete_self'],
      ['DELETE', `/wp/v2/users/${other.id}?reassign=${heir.id}&force=true`, { id: self.id }, 'cms_admin_cannot_delete_self'],
      // Core's own rule (no account with edit_users demotes itself below it), on the id it acts on.
      ['POST', `/wp/v2/users/${other.id}?id=${self.id}`, { roles: ['subscriber'] }, 'rest_user_invalid_role'],
      ['PUT', `/wp/v2/users/${other.id}`, { id: self.id, roles: ['editor'] }, 'rest_user_invalid_role'],
      ['DELETE', `/wp/v2/users/${other.id}/application-passwords?user_id=${self.id}`, undefined, 'cms_admin_own_app_password'],
      ['DELETE', `/wp/v2/users/${other.id}/application-passwords?user_id=me`, undefined, 'cms_admin_own_app_password'],
      ['DELETE', `/wp/v2/users/${other.id}/application-passwords/${otherUuid}?user_id=${self.id}&uuid=${own}`, undefined, 'cms_admin_own_app_password'],
      ['DELETE', `/wp/v2/users/${self.id}/application-passwords/${decoy}?uuid=${own}`, undefined, 'cms_admin_own_app_password'],
      ['DELETE', `/wp/v2/users/me/application-passwords/${decoy}`, { uuid: own }, 'cms_admin_own_app_password'],
      // The plugin's own routes act on, and check, the same merged id.
      ['POST', `/cms-admin/v1/users/${other.id}/disable?id=${self.id}`, {}, 'cms_admin_cannot_disable_self'],
      ['DELETE', `/cms-admin/v1/users/${other.id}/sessions?id=${self.id}`, undefined, 'cms_admin_cannot_log_out_self'],
    ];
    for (const [method, route, body, code] of attempts) {
      const answer = await restAs(who, method, route, body);
      expect(answer.body?.code, `${method} ${route} ${JSON.stringify(body ?? '')}`).toBe(code);
    }
    // The toolkit's own guard: a tool's ids are validated numbers put in the path by the client,
    // its queries fixed keys, so a call cannot smuggle an `id` in; it refuses by itself.
    const context = createContext({ url: testSite().url, ...who });
    const viaTool = await runIn(context, 'delete-user', { id: self.id, reassign_to: heir.id });
    expect(viaTool).toMatchObject({ ok: false, error: { code: 'cannot_delete_self' } });
    expect([await snapshot(self.id), await snapshot(other.id)]).toEqual(before);
    expect(before[0][1]).toEqual(['administrator']);
    // The decoy route with no override still works: the guard did not just refuse everything.
    expect((await restAs(who, 'DELETE', `/wp/v2/users/${self.id}/application-passwords/${decoy}`)).status).toBe(200);
    expect(await uuids(self.id)).toEqual([own]);
    expect((await restAs(who, 'GET', '/wp/v2/users/me')).status).toBe(200);
  });
});
