import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { callIn, restOnlyContext, unique, wp } from '../../helpers/site.js';
import { Browser, restAs } from './browser.js';
import { expectNoSecretsLeaked, makeAppPassword, makeUser, runError, runOk, wpPhp } from './helpers.js';

// Issue #60, finding 9: WordPress keeps no last login, so "authors who have not logged in for a
// year" could not be answered. The companion plugin (0.7.0) records each account's: real logins
// through wp-login.php and requests with an application password, read back from the database;
// list-users shows last_login and finds inactive_since, "unknown" (never "never") where nothing
// was recorded since the plugin began; the find and a set-users-role demote them.
type Item = { id: number; username: string; roles: string[]; last_login?: string };
type Page = { total: number; items: Item[]; note?: string };

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);
const iso = (t: number) => new Date(t * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const recorded = async (id: number) => Number((await wpPhp(`echo (int) get_user_meta(${id}, '_cms_admin_last_login', true);`)).trim());
const since = async () => Number((await wpPhp(`echo (int) get_site_option('cms_admin_last_login_since');`)).trim());
const setSince = (t: number) => wpPhp(`update_site_option('cms_admin_last_login_since', ${t});`);
const listed = async (search: string, extra: Record<string, unknown> = {}) => runOk<Page>('list-users', { search, ...extra });

describe('last login (companion plugin 0.7.0)', () => {
  let began: number;
  afterAll(async () => {
    if (began) await setSince(began);
    expectNoSecretsLeaked();
  });

  it('a wp-login.php login and an application-password request are recorded; before them the last login is "unknown", never "never"', async () => {
    began = await since();
    expect(began).toBeGreaterThan(0);
    const person = await makeUser({ prefix: 'll-form', roles: ['author'] });
    const program = await makeUser({ prefix: 'll-app', roles: ['author'] });
    const appPassword = await makeAppPassword(program.id);

    const [before] = (await listed(person.username)).items;
    expect(before?.last_login).toBe('unknown');
    const page = await listed(person.username);
    expect(page.note).toContain('no login recorded since the companion plugin began recording');
    expect(JSON.stringify(page)).not.toMatch(/never/i);

    const at = now();
    expect(await new Browser().login(person.username, person.password)).toBe(true);
    expect(await recorded(person.id)).toBeGreaterThanOrEqual(at);
    expect(Date.parse((await listed(person.username)).items[0]!.last_login!) / 1000).toBeGreaterThanOrEqual(at - 1);

    expect((await restAs({ username: program.username, appPassword }, 'GET', '/wp/v2/users/me')).status).toBe(200);
    expect(await recorded(program.id)).toBeGreaterThanOrEqual(at);
    expect((await listed(program.username)).items[0]?.last_login).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("WordPress's own application-password last_used counts as a login", async () => {
    const user = await makeUser({ prefix: 'll-used', roles: ['author'] });
    await makeAppPassword(user.id);
    const used = now() - 40 * DAY;
    await wpPhp(`$p = WP_Application_Passwords::get_user_application_passwords(${user.id}); $p[0]['last_used'] = ${used}; update_user_meta(${user.id}, WP_Application_Passwords::USERMETA_KEY_APPLICATION_PASSWORDS, $p);`);
    expect((await listed(user.username)).items[0]?.last_login).toBe(iso(used));
  });

  it('"demote the authors inactive for a year": list-users inactive_since, then set-users-role; unknown ones are said, not listed', async () => {
    const tag = unique('llyear').toLowerCase().replace(/\W+/g, '');
    const [old, recent, quiet] = await Promise.all(['old', 'recent', 'quiet'].map((n) => makeUser({ prefix: `${tag}${n}`, roles: ['author'] })));
    const yearAgo = now() - 365 * DAY;
    // A login 400 days ago (what the plugin would have recorded then), a login now, and an account
    // of two years ago with none, on a site whose plugin has recorded for two years.
    await wpPhp(`update_user_meta(${old!.id}, '_cms_admin_last_login', ${now() - 400 * DAY});`);
    expect(await new Browser().login(recent!.username, recent!.password)).toBe(true);
    await wpPhp(`wp_update_user(['ID' => ${quiet!.id}, 'user_registered' => gmdate('Y-m-d H:i:s', ${now() - 730 * DAY})]);`);
    await setSince(now() - 730 * DAY);

    const found = await listed(tag, { role: 'author', inactive_since: iso(yearAgo) });
    expect(found.items.map((u) => u.username).sort()).toEqual([old!.username, quiet!.username].sort());
    expect(found.items.find((u) => u.id === quiet!.id)?.last_login).toBe('unknown');

    // The same find on the command line gives the ids; one set-users-role demotes them.
    const ids = await runCli(['invoke', 'list-users', `search=${tag}`, 'role=author', `inactive_since=${iso(yearAgo)}`, '--format', 'ids']);
    expect(ids.stdout.trim().split(' ').map(Number).sort()).toEqual([old!.id, quiet!.id].sort());
    const demoted = await runOk('set-users-role', { user_ids: ids.stdout.trim().split(' ').map(Number), to_role: 'contributor' });
    expect(demoted.counts).toMatchObject({ changed: 2, failed: 0 });
    for (const [user, role] of [[old, 'contributor'], [quiet, 'contributor'], [recent, 'author']] as const)
      expect((await wp().get<{ roles: string[] }>(`/wp/v2/users/${user!.id}`, { context: 'edit' })).roles).toEqual([role]);

    // Recording began after the cutoff: an account with no record cannot be judged, and the answer says how many.
    await setSince(now() - DAY);
    const unsure = await listed(tag, { inactive_since: iso(yearAgo) });
    expect(unsure.items.map((u) => u.id)).toEqual([old!.id]);
    expect(unsure.note).toMatch(/1 more account\(s\) registered before .* have no login recorded: recording began/);
  });

  it('only an account that may list accounts can filter by last login', async () => {
    const editor = await makeUser({ prefix: 'll-editor', roles: ['editor'] });
    const appPassword = await makeAppPassword(editor.id);
    const asked = await restAs({ username: editor.username, appPassword }, 'GET', `/wp/v2/users?cms_inactive_since=${iso(now())}`);
    expect(asked.status).toBe(403);
  });

  it('without the companion plugin the filter says it needs it; the listing has no last_login', async () => {
    const context = restOnlyContext();
    const refused = await callIn(context, 'list-users', { inactive_since: '2025-01-01' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'companion_plugin_missing' } });
    expect(!refused.ok && refused.error.message).toContain('last login');
    const plain = await callIn(context, 'list-users', { limit: 2 });
    expect(plain.ok && (plain.result as Page).items.every((u) => !('last_login' in u))).toBe(true);
    expect((await runError('list-users', { inactive_since: 'last year' })).code).toBe('invalid_date');
  });
});
