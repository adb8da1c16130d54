import { createHash, randomBytes } from 'node:crypto';
import { mapLimit, type WordPressClient } from '../client/index.js';

/**
 * Application passwords and login sessions as eval state (the incident-response cases): read
 * per user over REST with the eval's own client — core's application-password route and the
 * companion plugin's sessions route — never the secrets, which neither route sends.
 */

type Row = { id: number } & { [field: string]: unknown };

/** A stable numeric id for records WordPress keys otherwise (uuid; a session's login, ip, agent). */
const idOf = (key: string) => createHash('sha256').update(key).digest().readUInt32BE(0);

async function userIds(client: WordPressClient): Promise<number[]> {
  const users = await client.all<{ id: number }>('/wp/v2/users', { context: 'edit', _fields: 'id', orderby: 'id' });
  return users.map((u) => Number(u.id));
}

export async function readAppPasswords(client: WordPressClient): Promise<Row[]> {
  const perUser = await mapLimit(await userIds(client), 4, async (user) =>
    (
      await client.get<Array<{ uuid: string; name: string; last_used: string | null }>>(
        `/wp/v2/users/${user}/application-passwords`,
        { _fields: 'uuid,name,last_used' },
      )
    ).map((p) => ({ id: idOf(p.uuid), user, uuid: p.uuid, name: p.name, used: p.last_used !== null })),
  );
  return perUser.flat();
}

export async function readSessions(client: WordPressClient): Promise<Row[]> {
  const perUser = await mapLimit(await userIds(client), 4, async (user) => {
    const { items } = await client.get<{ items: Array<{ login: string; ip: string; user_agent: string }> }>(
      `/cms-admin/v1/users/${user}/sessions`,
    );
    return items.map((s) => ({
      id: idOf(`${user}|${s.login}|${s.ip}|${s.user_agent}`),
      user,
      ip: s.ip,
      user_agent: s.user_agent,
    }));
  });
  return perUser.flat();
}

/**
 * A browser login through wp-login.php, as a person at another computer: WordPress stores the
 * session (ip, user agent). The user gets a fresh random password first (thrown away after).
 */
export async function browserLogin(client: WordPressClient, user: number, userAgent: string): Promise<void> {
  const password = `eval-${randomBytes(15).toString('base64url')}`;
  const { username } = await client.post<{ username: string }>(
    `/wp/v2/users/${user}`,
    { password },
    { context: 'edit' },
  );
  const response = await postLoginForm(client.siteUrl, username, password, userAgent);
  if (response.status !== 302 || !response.headers.getSetCookie().some((c) => c.startsWith('wordpress_logged_in_')))
    throw new Error(`fixture: logging in as user ${user} through wp-login.php failed (HTTP ${response.status})`);
}

/**
 * wp-login.php's form posted as a browser does (test cookie set, redirect not followed). The body
 * is read to its end before the answer is handed back (status and headers stay readable): a body
 * left unread can leave Node 22's fetch (undici) with a paused socket that ends later, which it
 * answers with an uncaught `assert(!this.paused)`.
 */
export async function postLoginForm(
  siteUrl: string,
  username: string,
  password: string,
  userAgent?: string,
): Promise<Response> {
  const response = await fetch(`${siteUrl}/wp-login.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: 'wordpress_test_cookie=WP%20Cookie%20check',
      ...(userAgent && { 'user-agent': userAgent }),
    },
    body: new URLSearchParams({ log: username, pwd: password, 'wp-submit': 'Log In', testcookie: '1' }),
  });
  const body = await response.text();
  return new Response(body, { status: response.status, headers: response.headers });
}
