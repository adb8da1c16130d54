import { redactUrl, WordPressError } from './errors.js';
import type { Query } from './http-helpers.js';
import { DROPPED_AUTH_HINT } from './response.js';

export interface CurrentUser {
  id: number;
  username: string;
  name: string;
  roles: string[];
  capabilities: Record<string, boolean>;
  /** When the account was registered (ISO; the change journal's entries older than it are not its own). */
  registered?: string;
}

/**
 * The companion plugin's `X-CMS-Admin-User: <id> <login>` (0.7.0, includes/request-user.php): the
 * answer was served to a logged-in account, so its credentials were accepted.
 */
export const USER_HEADER = 'x-cms-admin-user';

/** The account an answer was served to, from USER_HEADER; undefined without it (no plugin, or not logged in). */
export function servedTo(value: unknown): { id: number; username: string } | undefined {
  const match = typeof value === 'string' ? /^(\d+) (\S+)$/.exec(value) : null;
  if (!match || match[1] === '0') return undefined;
  try {
    return { id: Number(match[1]), username: decodeURIComponent(match[2] as string) };
  } catch {
    return undefined;
  }
}

/** What this needs of the client (not its class: that would be an import cycle). */
interface UserSource {
  readonly siteUrl: string;
  readonly username: string;
  /** What a login error tells the person to fix, e.g. "CMS_USERNAME and CMS_APP_PASSWORD". */
  readonly credentialsFrom: string;
  get<T>(path: string, query?: Query): Promise<T>;
}

/**
 * The authenticated user, or a clear authentication error. WordPress 6.1 treats a wrong
 * application password as an anonymous visitor, so `users/me` is the first request that can tell.
 */
export async function fetchCurrentUser(client: UserSource): Promise<CurrentUser> {
  try {
    const me = await client.get<{ id: number; slug: string; name: string; roles?: string[]; capabilities?: Record<string, boolean>; registered_date?: string }>(
      '/wp/v2/users/me',
      { context: 'edit', _fields: 'id,slug,name,roles,capabilities,username,registered_date' },
    );
    return {
      id: me.id,
      username: (me as { username?: string }).username ?? me.slug,
      name: me.name,
      roles: me.roles ?? [],
      capabilities: me.capabilities ?? {},
      ...(me.registered_date ? { registered: me.registered_date } : {}),
    };
  } catch (err) {
    // http_403 & co.: a page from a firewall or CDN, not WordPress (notJsonError names it): kept
    // as it is, since no password is at fault.
    const fromWordPress = err instanceof WordPressError && !/^http_\d+$/.test(err.code);
    if (err instanceof WordPressError && fromWordPress && (err.status === 401 || err.status === 403)) {
      // rest_not_logged_in: WordPress saw no credentials at all, which a wrong password on 6.1
      // and a server that drops the Authorization header look like alike; the hint names both.
      const loggedOut = err.code === 'rest_not_logged_in' || err.hint !== undefined;
      throw new WordPressError({
        status: err.status,
        code: 'authentication_failed',
        message: loggedOut
          ? `WordPress at ${redactUrl(client.siteUrl)} treated the toolkit as logged out (${err.code}: ${err.message}) although it sent the application password of user "${client.username}": either ${client.credentialsFrom} are wrong, or the web server drops the Authorization header.`
          : `WordPress at ${redactUrl(client.siteUrl)} did not accept the application password for user "${client.username}" (${err.code}). Check ${client.credentialsFrom}; create an application password under Users → Profile → Application Passwords.`,
        request: err.request,
        hint: loggedOut
          ? err.hint ?? DROPPED_AUTH_HINT
          : `Fix ${client.credentialsFrom}, then try again.`,
      });
    }
    throw err;
  }
}
