import type { WordPressClient } from '../../client/index.js';
import { forUser } from './records.js';

/** An application password as a person looks at it; core never returns the password after creation. */
export interface AppPassword {
  uuid: string;
  name: string;
  created: string;
  last_used: string | null;
  last_ip: string | null;
}

/** More would not help anyone reading the answer; a user with more is told how many. */
export const MAX_LISTED = 200;

/** A user's application passwords, newest use first (never used last), through core's route. */
export async function loadAppPasswords(client: WordPressClient, userId: number): Promise<AppPassword[]> {
  const raw = await forUser(userId, () =>
    client.get<AppPassword[]>(`/wp/v2/users/${userId}/application-passwords`, {
      _fields: 'uuid,name,created,last_used,last_ip',
    }),
  );
  const items = raw.map(({ uuid, name, created, last_used, last_ip }) => ({
    uuid,
    name,
    created: utc(created),
    last_used: last_used ? utc(last_used) : null,
    last_ip: last_ip ?? null,
  }));
  return items.sort(
    (a, b) => (b.last_used ?? '').localeCompare(a.last_used ?? '') || a.created.localeCompare(b.created),
  );
}

/**
 * Core sends these dates in UTC without saying so (`gmdate('Y-m-d\TH:i:s')`); read as local
 * time they would be off by the site's or reader's offset, so the zone is added.
 * https://developer.wordpress.org/reference/classes/wp_rest_application_passwords_controller/prepare_item_for_response/
 */
function utc(date: string): string {
  return /(Z|[+-]\d\d:?\d\d)$/.test(date) ? date : `${date}Z`;
}
