import { WordPressClient } from '../../client/index.js';

/**
 * What sign-in asks of the WordPress site: its authorize-application.php page, checking what it
 * hands back, and deleting a grant's application password. Knows nothing of OAuth.
 */

/** `<site>/wp-admin/authorize-application.php?app_name=…&app_id=…&success_url=…&reject_url=…` */
export function authorizeApplicationUrl(
  siteUrl: string,
  appName: string,
  appId: string,
  success: URL,
  reject: URL,
): URL {
  const target = new URL('wp-admin/authorize-application.php', siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`);
  // Whole: WordPress takes any length, and a cut here would drop the redirect's host at the end.
  target.searchParams.set('app_name', appName);
  target.searchParams.set('app_id', appId);
  target.searchParams.set('success_url', success.href);
  target.searchParams.set('reject_url', reject.href);
  return target;
}

export type Approval = { userLogin: string; password: string; appUuid: string } | { refused: string };

/**
 * WordPress's redirect after approve (`site_url`, `user_login`, `password`) or reject, checked:
 * the site must be ours and the password must work (core's introspect route also gives its uuid).
 */
export async function checkApproval(siteUrl: string, query: Record<string, unknown>): Promise<Approval> {
  const { rejected, password, user_login: userLogin, site_url: site } = query;
  if (rejected || typeof password !== 'string' || !password || typeof userLogin !== 'string' || !userLogin) {
    return { refused: 'the connection was not approved in WordPress' };
  }
  if (typeof site !== 'string' || !sameSite(site, siteUrl))
    return { refused: `signed in on another site; this server serves ${siteUrl}` };
  try {
    const client = new WordPressClient({ url: siteUrl, username: userLogin, appPassword: password });
    const { uuid } = await client.get<{ uuid: string }>('/wp/v2/users/me/application-passwords/introspect', {
      _fields: 'uuid',
    });
    return { userLogin, password, appUuid: uuid };
  } catch {
    return { refused: 'WordPress did not accept the new application password' };
  }
}

/**
 * WordPress's redirect for a sign-in that gets no code: the application password it just made,
 * if it works, is deleted, so nothing is left in the person's profile that no one will use.
 */
export async function discardApproval(siteUrl: string, query: Record<string, unknown>): Promise<void> {
  const approval = await checkApproval(siteUrl, query);
  if ('refused' in approval) return;
  const client = new WordPressClient({ url: siteUrl, username: approval.userLogin, appPassword: approval.password });
  await deleteOwnAppPassword(client, approval.userLogin, approval.appUuid);
}

/** Deletes the application password `uuid` signed in with itself; a failure is reported on stderr (never the password). */
export async function deleteOwnAppPassword(client: WordPressClient, userLogin: string, uuid: string): Promise<void> {
  try {
    // The companion plugin refuses a password revoking itself unless it says it signs out.
    await client.delete(`/wp/v2/users/me/application-passwords/${uuid}`, { cms_admin_sign_out: '1' });
  } catch (err) {
    const why = (err as { code?: string }).code ?? (err as Error).name;
    process.stderr.write(
      `cms-admin mcp: could not delete ${userLogin}'s application password in WordPress (${why}); delete it in their profile.\n`,
    );
  }
}

function sameSite(a: string, b: string): boolean {
  const norm = (url: string) => {
    try {
      const u = new URL(url);
      return `${u.host}${u.pathname.replace(/\/+$/, '')}`.toLowerCase();
    } catch {
      return '';
    }
  };
  return norm(a) !== '' && norm(a) === norm(b);
}
