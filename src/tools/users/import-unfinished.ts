import { hostname } from 'node:os';
import type { WordPressClient } from '../../client/index.js';
import { hasCompanion } from '../companion.js';
import type { ChangeEntry, ChangeJournal, JournalLine } from '../journal-port.js';
import type { CreateLocator } from '../undo-data.js';

/**
 * Accounts an earlier import made but never finished (#59.10): its process was killed, or a
 * batch's answer was lost (#59.12), so its journal entry is still `pending` or `unknown`, and
 * some of the accounts it made may never have got their new-user email. A re-run of the import
 * must not skip them as "the account exists": it finds them by that entry's intent (the logins
 * it was to create, newer than the newest account before it) and gives each its way in once —
 * only an account with no set-password link pending and no login session (companion plugin
 * 0.7.0, `cms_access`), which never got in; without that field, it says what to do instead.
 */
export interface Unfinished {
  change_id: string;
  /** The newest account id before that import: what it made is newer. */
  after: number;
  logins: Set<string>;
}

/** How many of the latest entries are looked through. */
const LOOK_BACK = 1000;

export async function unfinishedImports(journal: ChangeJournal | undefined, me: number): Promise<Unfinished[]> {
  if (!journal) return [];
  const out: Unfinished[] = [];
  const undone = new Set<string>();
  let seen = 0;
  for await (const line of newestFirst(journal)) {
    if ('damaged' in line || ++seen > LOOK_BACK) continue;
    if (line.undoes) undone.add(line.undoes);
    if (line.tool !== 'import-users' || undone.has(line.change_id) || (line.user_id !== undefined && line.user_id !== me)) continue;
    if (line.status !== 'unknown' && !(line.status === 'pending' && !running(line))) continue;
    const made = (line.scope as { locate?: CreateLocator } | undefined)?.locate?.newUsers;
    if (made) out.push({ change_id: line.change_id, after: made.after, logins: new Set(made.usernames.map((l) => l.toLowerCase())) });
  }
  return out;
}

/** The unfinished import that made account `id` (login `login`), if any. */
export function madeBy(unfinished: readonly Unfinished[], id: number, login: string): Unfinished | undefined {
  return unfinished.find((u) => id > u.after && u.logins.has(login.toLowerCase()));
}

export interface Access {
  /** When a set-password link was made for it (still pending), or null. */
  link_made: string | null;
  signed_in: boolean;
}

/** Whether each account ever got in (`cms_access`, 0.7.0), or undefined when the site cannot say. */
export async function accessOf(client: WordPressClient, ids: readonly number[]): Promise<Map<number, Access> | undefined> {
  if (!ids.length || !(await hasCompanion(client, 'users/access'))) return undefined;
  const out = new Map<number, Access>();
  for (let i = 0; i < ids.length; i += 100) {
    const page = await client.get<Array<{ id: number; cms_access?: Access }>>('/wp/v2/users', {
      include: ids.slice(i, i + 100),
      per_page: 100,
      context: 'edit',
      _fields: 'id,cms_access',
    });
    for (const u of page) if (u.cms_access) out.set(u.id, u.cms_access);
  }
  return out;
}

async function* newestFirst(journal: ChangeJournal): AsyncGenerator<JournalLine<ChangeEntry>> {
  if (journal.latest) {
    yield* journal.latest();
    return;
  }
  const all = await journal.entries();
  for (let i = all.length - 1; i >= 0; i--) yield all[i] as ChangeEntry;
}

/** A pending entry whose process still runs on this machine is an import under way, not an unfinished one. */
function running(entry: ChangeEntry): boolean {
  if (!entry.pid || (entry.host && entry.host !== hostname())) return Boolean(entry.pid);
  if (entry.pid === process.pid) return true;
  try {
    process.kill(entry.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What a re-run does with an existing account `made` by an unfinished import: `finish` (give it
 * its way in now) when it never got in, else `skip` saying why — never a silent skip.
 */
export function finishRow(made: Unfinished, access: Map<number, Access> | undefined, id: number): { outcome: 'finish' | 'skip'; reason: string } {
  const by = `made by import ${made.change_id}, which did not finish`;
  if (!access) return { outcome: 'skip', reason: `${by}; it may never have got its new-user email: send it one with reset-user-password` };
  const now = access.get(id);
  if (now?.link_made) return { outcome: 'skip', reason: `${by}; it has a set-password link already (made ${now.link_made})` };
  if (now?.signed_in) return { outcome: 'skip', reason: `${by}; it has signed in since` };
  return { outcome: 'finish', reason: `${by}, and never got its way in: it gets it now` };
}
