import type { WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE, requireCompanion } from '../companion.js';
import { forUser } from './records.js';

export interface SessionList {
  id: number;
  username: string;
  total: number;
  items: Array<{ login: string | null; expires: string | null; ip: string; user_agent: string }>;
}

/** A user's unexpired login sessions from the companion plugin (core has no route); never a token. */
export async function loadSessions(client: WordPressClient, userId: number, what: string): Promise<SessionList> {
  await requireCompanion(client, what, 'users/sessions');
  return forUser(userId, () => client.get<SessionList>(`/${COMPANION_NAMESPACE}/users/${userId}/sessions`));
}
