import { type WordPressClient, WordPressError } from '../../client/index.js';
import { pluginRefusal, type RefusalCode, refusal } from '../refusals.js';
import { forUser } from './records.js';
import { accountBeyond } from './guards.js';
import { explainGuardError } from './write-errors.js';

/**
 * Checks the account tools (delete-user, app passwords, sessions) make before they write, so
 * the toolkit says why first; the companion plugin and WordPress enforce the same rules.
 */

export interface Account {
  id: number;
  username: string;
  roles: string[];
  capabilities: Record<string, boolean>;
  disabled: boolean | null;
}

type RawAccount = Partial<Account> & { cms_disabled?: boolean };
const ACCOUNT_QUERY = { context: 'edit', _fields: 'id,username,roles,capabilities,cms_disabled' } as const;

/**
 * A user with its capabilities, as the caller may see it: WordPress shows the edit view only
 * of accounts the caller may edit (the users collection skips the others), and the companion
 * plugin (0.3.0) refuses that for a stronger account, with the reason: that error, or
 * user_not_found, is what a missing account gives.
 */
export async function readAccount(client: WordPressClient, id: number): Promise<Account> {
  const [listed] = await client.get<RawAccount[]>('/wp/v2/users', { include: id, ...ACCOUNT_QUERY });
  const raw =
    listed ??
    (await forUser(id, () => client.get<RawAccount>(`/wp/v2/users/${id}`, ACCOUNT_QUERY)).catch((err) => {
      throw explainGuardError(err);
    }));
  return {
    id: Number(raw.id),
    username: raw.username ?? '',
    roles: raw.roles ?? [],
    capabilities: raw.capabilities ?? {},
    disabled: typeof raw.cms_disabled === 'boolean' ? raw.cms_disabled : null,
  };
}

/**
 * Whether user `id` exists and whether it can write posts, through the public view (list_users
 * shows every account there, also those the caller may not edit).
 */
export async function postAuthor(
  client: WordPressClient,
  id: number,
): Promise<{ exists: boolean; canWrite: boolean; name: string }> {
  const query = { include: id, _fields: 'id,slug' };
  const [[found], [writer], [editable]] = await Promise.all([
    client.get<Array<{ id: number; slug: string }>>('/wp/v2/users', query),
    client.get<Array<{ id: number }>>('/wp/v2/users', { ...query, capabilities: 'edit_posts' }),
    // The username, when the caller may see it (the slug otherwise).
    client.get<Array<{ username: string }>>('/wp/v2/users', { include: id, context: 'edit', _fields: 'username' }),
  ]);
  return { exists: found !== undefined, canWrite: writer !== undefined, name: editable?.username ?? found?.slug ?? '' };
}

/** The account, unless it is the toolkit's own (`self`) or holds capabilities the caller lacks. */
export async function targetAccount(
  client: WordPressClient,
  id: number,
  what: string,
  self?: RefusalCode,
): Promise<Account> {
  if (self) await refuseSelf(client, id, what, self);
  const account = await readAccount(client, id);
  await refuseStronger(client, account, what);
  return account;
}

/** Refuses `id` when it is the account the toolkit signs in as. */
export async function refuseSelf(
  client: WordPressClient,
  id: number,
  what: string,
  self: RefusalCode,
) {
  const me = await client.connect();
  if (id !== me.id) return;
  throw refusal(
    self,
    `User ${me.id} (${me.username}) is the account this toolkit is signed in as: it cannot ${what} its own account. Nothing was changed.`,
  );
}

/** Refuses an account that holds capabilities the caller lacks (as the plugin's account-guards.php). */
export async function refuseStronger(client: WordPressClient, account: Account, what: string): Promise<void> {
  const me = await client.connect();
  const beyond = await accountBeyond(client, account, me.capabilities);
  if (!beyond.length) return;
  const shown = beyond.slice(0, 5).join(', ') + (beyond.length > 5 ? ', …' : '');
  throw refusal('account_stronger_than_caller', `You cannot ${what} ${account.username}: that account holds capabilities yours (${me.username}) does not (${shown}). Nothing was changed.`, { capabilities: beyond.slice(0, 20) });
}

/**
 * The uuid of the application password the toolkit signs in with (core's introspect route,
 * WordPress 5.7+), or undefined when it signs in some other way.
 * https://developer.wordpress.org/rest-api/reference/application-passwords/#retrieve-the-current-application-password
 */
export async function ownAppPasswordUuid(client: WordPressClient): Promise<string | undefined> {
  try {
    const own = await client.get<{ uuid: string }>('/wp/v2/users/me/application-passwords/introspect', {
      _fields: 'uuid',
    });
    return own.uuid;
  } catch (err) {
    if (err instanceof WordPressError && err.code === 'rest_no_authenticated_app_password') return undefined;
    throw err;
  }
}

/** The companion plugin's account refusals (offboarding.php, sessions.php) as tool errors: refusals.ts's one table. */
export function explainAccountError(err: unknown): unknown {
  if (!(err instanceof WordPressError)) return err;
  return pluginRefusal(err) ?? explainGuardError(err);
}

