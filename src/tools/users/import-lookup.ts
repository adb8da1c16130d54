import type { WordPressClient } from '../../client/index.js';

/**
 * The accounts of rows whose batch's answer was lost (#59.12): WordPress may have created them
 * (a slow site finishing a batch the client gave up on), so they are looked up by login among the
 * accounts newer than the newest one before the import, before the answer is given. Newest first,
 * a page of 100 a request, until an account as old as the import's start.
 */
export async function findCreated(
  client: WordPressClient,
  logins: readonly string[],
  after: number,
): Promise<Map<string, { id: number; username: string }>> {
  const wanted = new Set(logins.map((l) => l.toLowerCase()));
  const found = new Map<string, { id: number; username: string }>();
  for (let page = 1; found.size < wanted.size; page++) {
    const batch = await client.get<Array<{ id: number; username: string }>>('/wp/v2/users', {
      orderby: 'id',
      order: 'desc',
      per_page: 100,
      page,
      context: 'edit',
      _fields: 'id,username',
    });
    const newer = batch.filter((u) => u.id > after);
    for (const u of newer) if (wanted.has(u.username.toLowerCase())) found.set(u.username.toLowerCase(), u);
    if (batch.length < 100 || newer.length < batch.length) break;
  }
  return found;
}
