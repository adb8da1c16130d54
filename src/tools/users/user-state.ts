import { decodeEntities } from '../../client/index.js';
import type { UserState } from '../undo-data.js';

/**
 * A user as the journal keeps it (undo-data.ts UserState), from `/wp/v2/users` read with these
 * fields: the undo engine reads users so, and a bulk role change's plan reads them so too, so its
 * reading is the journal's state before (#61).
 */
export const USER_STATE_FIELDS = 'id,username,name,email,description,roles,cms_disabled,first_name,last_name,url';

export function toUserState(raw: Record<string, unknown>): UserState {
  return {
    username: String(raw.username ?? ''),
    email: String(raw.email ?? ''),
    name: decodeEntities(String(raw.name ?? '')),
    bio: String(raw.description ?? ''),
    roles: [...((raw.roles as string[] | undefined) ?? [])].sort(),
    disabled: typeof raw.cms_disabled === 'boolean' ? raw.cms_disabled : null,
    first_name: String(raw.first_name ?? ''),
    last_name: String(raw.last_name ?? ''),
    url: String(raw.url ?? ''),
  };
}
