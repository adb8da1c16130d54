import { decodeEntities, type WordPressClient, WordPressError } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import { explainGuardError } from './write-errors.js';

/** The user record every user tool returns: what a person looks at, never `_links` or avatars. */
export interface UserRecord {
  id: number;
  username: string;
  name: string;
  email: string;
  roles: string[];
  registered_date: string;
  /** null when the site lacks the companion plugin, so the state is unknown. */
  disabled: boolean | null;
}

/** `_fields` keeps WordPress from building what we would throw away; `context=edit` adds email, roles, dates. */
export const USER_FIELDS = 'id,username,name,email,roles,registered_date,cms_disabled';
export const USER_QUERY = { context: 'edit', _fields: USER_FIELDS } as const;

export type RawUser = Partial<Omit<UserRecord, 'disabled'>> & { cms_disabled?: boolean };

export function toUser(raw: RawUser): UserRecord {
  return {
    id: Number(raw.id),
    username: raw.username ?? '',
    name: decodeEntities(raw.name),
    email: raw.email ?? '',
    roles: raw.roles ?? [],
    registered_date: raw.registered_date ?? '',
    disabled: typeof raw.cms_disabled === 'boolean' ? raw.cms_disabled : null,
  };
}

export function userNotFound(id: number): ToolError {
  return new ToolError('user_not_found', `No user with id ${id}.`, { hint: 'Use list-users to find the user’s id.' });
}

/** Runs a request about user `id`, turning WordPress's 404 for it into a clear not-found error. */
export async function forUser<T>(id: number, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (err instanceof WordPressError && err.code === 'rest_user_invalid_id') throw userNotFound(id);
    // The companion plugin (0.3.0) refuses even the edit view of a stronger account, saying why.
    throw explainGuardError(err);
  }
}

export function getUser(client: WordPressClient, id: number): Promise<UserRecord> {
  return forUser(id, async () => toUser(await client.get<RawUser>(`/wp/v2/users/${id}`, USER_QUERY)));
}

/** `jane.doe@example.com` → `j***e@example.com`: enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  const shown = local.length <= 2 ? `${local[0]}***` : `${local[0]}***${local[local.length - 1]}`;
  return `${shown}${email.slice(at)}`;
}
