import { redactUrl, WordPressError } from './errors.js';
import type { WordPressClient } from './wordpress-client.js';

export interface CurrentUser {
  id: number;
  username: string;
  name: string;
  roles: string[];
  capabilities: Record<string, boolean>;
}

/**
 * The authenticated user, or a clear authentication error. WordPress 6.1 treats a wrong
 * application password as an anonymous visitor, so `users/me` is the first request that can tell.
 */
export async function fetchCurrentUser(client: WordPressClient): Promise<CurrentUser> {
  try {
    const me = await client.get<{ id: number; slug: string; name: string; roles?: string[]; capabilities?: Record<string, boolean> }>(
      '/wp/v2/users/me',
      { context: 'edit', _fields: 'id,slug,name,roles,capabilities,username' },
    );
    return {
      id: me.id,
      username: (me as { username?: string }).username ?? me.slug,
      name: me.name,
      roles: me.roles ?? [],
      capabilities: me.capabilities ?? {},
    };
  } catch (err) {
    if (err instanceof WordPressError && (err.status === 401 || err.status === 403)) {
      throw new WordPressError({
        status: err.status,
        code: 'authentication_failed',
        message: `WordPress at ${redactUrl(client.siteUrl)} did not accept the application password for user "${client.username}" (${err.code}). Check CMS_USERNAME and CMS_APP_PASSWORD; create an application password under Users → Profile → Application Passwords.`,
        request: err.request,
      });
    }
    throw err;
  }
}
