import { type WordPressClient, WordPressError, withoutAbortSignal } from '../../client/index.js';
import { sleep } from '../../client/retry.js';
import { ToolError } from '../tool-error.js';

/**
 * A lock on the site for post-term writes through the core API, shared by every toolkit
 * process (two terminals, a chat and a script, two MCP clients). /wp/v2 replaces a post's whole
 * term list, so two read-modify-write calls in flight at once lose one another's changes, and
 * no read-back can see it afterwards (the later write looks right to its writer). WordPress has
 * no conditional update, so writers take turns: each creates a draft reusable block titled
 * LOCK_TITLE (ids grow, so the lowest live one holds the lock), waits for its turn, and deletes
 * it when done. A lease in the title (renewed while held) lets a crashed holder's entry expire.
 * Writers that do not take it (wp-admin, other plugins) are not covered: see docs/concurrency.md.
 */
export const LOCK_TITLE = 'cms-admin-toolkit lock: post terms';
const ROUTE = '/wp/v2/blocks';
const LEASE_MS = 120_000;

/** How long a call waits for another call's turn before giving up, changing nothing. */
export const siteLockOptions = { waitMs: 60_000, pollMs: 250 };

const held = new WeakSet<WordPressClient>();

type Entry = { id: number; title?: { raw?: string; rendered?: string } };

function title(token: string): string {
  return `${LOCK_TITLE} (${token}) until ${new Date(Date.now() + LEASE_MS).toISOString()} - safe to delete after that`;
}

function lease(entry: Entry): { token?: string; until: number } | undefined {
  const text = entry.title?.raw ?? entry.title?.rendered ?? '';
  const match = /\(([\w-]+)\) until (\S+)/.exec(text);
  if (!text.startsWith(LOCK_TITLE) || !match) return undefined;
  return { token: match[1], until: Date.parse(match[2] as string) };
}

async function entries(client: WordPressClient): Promise<Entry[]> {
  return client.all<Entry>(ROUTE, {
    search: LOCK_TITLE,
    status: 'draft',
    context: 'edit',
    _fields: 'id,title',
    orderby: 'id',
    order: 'asc',
    per_page: 100,
  });
}

/** Creates this call's entry; a lost answer is found again by its token, never left behind. */
async function create(client: WordPressClient, token: string): Promise<number | undefined> {
  try {
    return (
      await client.post<{ id: number }>(ROUTE, { title: title(token), status: 'draft', content: '' }, { _fields: 'id' })
    ).id;
  } catch (err) {
    if (!(err instanceof WordPressError)) throw err;
    if (err.status !== undefined && err.status < 500) {
      // Not allowed to create reusable blocks: go on without the lock, and say so.
      client.warnOnce(
        'site-lock',
        `Cannot take the toolkit's site lock for post-term writes (${err.code}); concurrent toolkit calls on this site may overwrite each other's term changes. Install the companion plugin to avoid that.`,
      );
      return undefined;
    }
    const mine = (await entries(client)).find((entry) => lease(entry)?.token === token);
    if (mine) return mine.id;
    throw err;
  }
}

/**
 * Runs `task` while this call holds the site lock. Waits up to `siteLockOptions.waitMs` for
 * other holders; then fails with `site_busy` having written nothing (but its own lock entry,
 * which it deletes).
 */
export async function withSiteLock<T>(client: WordPressClient, task: () => Promise<T>): Promise<T> {
  // Held already by this client: calls sharing a client take turns (post-lock.ts), so the
  // holder is an outer step of the same call (a merge around its post writes).
  if (held.has(client)) return task();
  const token = crypto.randomUUID();
  const id = await create(client, token);
  if (id === undefined) return task();
  held.add(client);
  const renew = setInterval(() => {
    client.post(`${ROUTE}/${id}`, { title: title(token) }, { _fields: 'id' }).catch(() => undefined);
  }, LEASE_MS / 4);
  renew.unref();
  try {
    await waitForTurn(client, id);
    return await task();
  } finally {
    held.delete(client);
    clearInterval(renew);
    // A cancelled call (Ctrl-C) still gives the lock back: otherwise every other writer waits
    // out its lease.
    await withoutAbortSignal(() => release(client, id, token));
  }
}

/**
 * Deletes the entry. WordPress before 6.4 lets no one delete a *draft* reusable block (it maps
 * delete_post to `delete_blocks`, which no role has: https://core.trac.wordpress.org/ticket/59041),
 * so the entry is published for that instant, then deleted (that needs Editor rights). If it
 * still cannot go, it is marked released (its lease in the past: it holds no one up) and stays,
 * with a warning.
 */
async function release(client: WordPressClient, id: number, token: string): Promise<void> {
  const released = `${LOCK_TITLE} (${token}) until ${new Date(0).toISOString()} - released, safe to delete`;
  if (await removeEntry(client, id)) return;
  await client.post(`${ROUTE}/${id}`, { title: released }, { _fields: 'id' }).catch(() => undefined);
  client.warnOnce(
    'site-lock-release',
    `This account may not delete reusable blocks here, so each post-term write through the core API leaves its lock entry, a reusable block titled "${LOCK_TITLE} … released": an editor can delete them, or install the companion plugin (it needs no lock).`,
  );
}

/** Deletes an entry (published first where a draft cannot be deleted); false if refused. */
export async function removeEntry(client: WordPressClient, id: number): Promise<boolean> {
  const refused = (err: unknown) => err instanceof WordPressError && err.status === 403;
  const remove = () => client.delete(`${ROUTE}/${id}`, { force: true });
  try {
    await remove();
    return true;
  } catch (err) {
    if (!refused(err)) return true; // gone already, or unreachable: its lease expires by itself
  }
  try {
    await client.post(`${ROUTE}/${id}`, { status: 'publish' }, { _fields: 'id' });
  } catch (err) {
    return !refused(err);
  }
  try {
    await remove();
    return true;
  } catch (err) {
    // Not in the block inserter: back to draft.
    await client.post(`${ROUTE}/${id}`, { status: 'draft' }, { _fields: 'id' }).catch(() => undefined);
    return !refused(err);
  }
}

async function waitForTurn(client: WordPressClient, id: number): Promise<void> {
  const start = Date.now();
  for (;;) {
    const now = Date.now();
    const all = await entries(client);
    const expired = all.filter(
      (entry) => entry.id !== id && (lease(entry)?.until ?? 0) < now && !entry.title?.raw?.includes('released'),
    );
    // A crashed call's entry; best effort: expired entries hold no one up either way.
    for (const entry of expired) await removeEntry(client, entry.id);
    const holder = all.find((entry) => entry.id === id || (lease(entry)?.until ?? 0) >= now);
    if (!holder || holder.id === id) return;
    if (Date.now() - start >= siteLockOptions.waitMs) {
      throw new ToolError(
        'site_busy',
        `Another cms-admin call is changing post terms on this site (its lock is reusable block ${holder.id}); waited ${Math.round(siteLockOptions.waitMs / 1000)} s. Nothing was changed.`,
        {
          hint: 'Try again when the other call has finished. If none is running, the lock expires by itself within two minutes (or delete that draft block).',
          details: { lock_id: holder.id },
        },
      );
    }
    await sleep(siteLockOptions.pollMs);
  }
}
