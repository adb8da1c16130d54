import { answerLost, chunk, type WordPressClient, WordPressError } from '../../client/index.js';
import { COMPANION_NAMESPACE } from '../companion.js';

/**
 * The companion plugin's bulk account routes (0.7.0, includes/account-bulk.php; #59, #61): many
 * accounts a request, each changed only if it is still as planned, answered per account. Each
 * request carries a time budget well under the client's timeout; the route stops when it is
 * spent and says how far it got, and the rest goes in the next request. A request whose answer
 * is lost is sent again (every item is conditional: one that landed answers `unchanged` or
 * `gone`, read here as done); lost twice, its accounts are looked up and said as they are.
 */
export type BulkResult = 'done' | 'unchanged' | 'skipped' | 'refused' | 'gone' | 'deleted' | 'would_delete' | 'unknown' | 'not_sent';

export interface BulkAnswer {
  id: number;
  username: string | null;
  result: BulkResult;
  /** A refusal's code (WordPress's or the plugin's). */
  code?: string;
  reason?: string;
  /** Roles before and after (bulk-roles). */
  before?: string[];
  after?: string[];
  /** What an account has now that it did not (bulk-delete's `skipped`). */
  changes?: string[];
}

export interface RoleItem {
  id: number;
  roles: string[];
  /** The roles it was planned on: it is changed only if it still has exactly these. */
  expect_roles: string[];
}

export interface DeleteItem {
  id: number;
  /** As the change left it: roles and email it must still have. */
  expect?: { roles?: string[]; email?: string };
}

export interface BulkOptions {
  /** Milliseconds each request may work (default: a third of the client's timeout, at most 10 s). */
  budgetMs?: number;
}

interface RouteAnswer {
  items: BulkAnswer[];
  processed: number;
  complete: boolean;
}

/** Accounts sent in one request at most (the route takes as many as its budget allows). */
const PER_REQUEST = 500;

export function bulkBudget(client: WordPressClient): number {
  return Math.max(50, Math.min(10_000, Math.floor(client.timeoutMs / 3)));
}

/** Roles for many accounts, each only if it still has `expect_roles`. */
export function changeRoles(client: WordPressClient, items: readonly RoleItem[], options: BulkOptions = {}): Promise<BulkAnswer[]> {
  const target = new Map(items.map((i) => [i.id, i]));
  return sendBounded(client, 'users/bulk-roles', {}, items, options, {
    landed: (a) => (a.result === 'unchanged' ? { ...a, result: 'done', before: target.get(a.id)?.expect_roles, reason: 'its first answer was lost; read back' } : a),
    lookUp: async (lost) => {
      const now = await lookUpRoles(client, lost.map((i) => i.id));
      return lost.map((item) => {
        const roles = now.get(item.id);
        const base = { id: item.id, username: null };
        if (roles === undefined) return { ...base, result: 'gone', reason: 'not found when read back' };
        if (same(roles, item.roles)) return { ...base, result: 'done', before: item.expect_roles, after: roles, reason: 'its answer was lost; read back' };
        if (same(roles, item.expect_roles))
          return { ...base, result: 'unknown', before: item.expect_roles, after: item.roles, reason: 'its answer was lost and it still had its old roles when read back; WordPress may still apply the change' };
        return { ...base, result: 'skipped', before: roles, reason: `changed since it was read: it has ${roles.join(', ') || 'no role'} now` };
      });
    },
  });
}

/** Deletes accounts, each only if it is still as `expect` says and owns nothing (unless force). */
export function deleteAccounts(
  client: WordPressClient,
  items: readonly DeleteItem[],
  extra: { force?: boolean; reassign?: number; dry_run?: boolean },
  options: BulkOptions = {},
): Promise<BulkAnswer[]> {
  return sendBounded(client, 'users/bulk-delete', extra, items, options, {
    landed: (a) => (a.result === 'gone' ? { ...a, result: 'deleted', reason: 'its first answer was lost; read back' } : a),
    lookUp: async (lost) => {
      const now = await lookUpRoles(client, lost.map((i) => i.id));
      return lost.map((item) =>
        now.has(item.id)
          ? { id: item.id, username: null, result: 'unknown', reason: 'its answer was lost and the account was still there when read back; WordPress may still delete it' }
          : { id: item.id, username: null, result: 'deleted', reason: 'its answer was lost; read back: gone' },
      );
    },
  });
}

async function sendBounded<T extends { id: number }>(
  client: WordPressClient,
  route: string,
  extra: Record<string, unknown>,
  items: readonly T[],
  options: BulkOptions,
  lost: { landed: (answer: BulkAnswer) => BulkAnswer; lookUp: (items: T[]) => Promise<BulkAnswer[]> },
): Promise<BulkAnswer[]> {
  const out: BulkAnswer[] = [];
  let rest = [...items];
  let budget = options.budgetMs ?? bulkBudget(client);
  const resent = new Set<number>();
  let lostInARow = 0;
  while (rest.length) {
    const sent = rest.slice(0, PER_REQUEST);
    let answer: RouteAnswer;
    try {
      answer = await client.post<RouteAnswer>(`/${COMPANION_NAMESPACE}/${route}`, { ...extra, items: sent, budget_ms: budget });
    } catch (err) {
      if (!(err instanceof WordPressError) || err.code === 'cancelled' || !(answerLost(err) || (err.status ?? 0) >= 500)) throw err;
      for (const item of sent) resent.add(item.id);
      if (++lostInARow >= 2) {
        const never = rest.slice(sent.length).map((item): BulkAnswer => ({ id: item.id, username: null, result: 'not_sent', reason: `not sent: WordPress answered none of the last two requests (${err.message})` }));
        return [...out, ...(await lost.lookUp(sent)), ...never];
      }
      // A smaller budget: the request that was lost may have been near a timeout.
      budget = Math.max(50, Math.floor(budget / 2));
      continue;
    }
    lostInARow = 0;
    const answered = answer.items.slice(0, sent.length);
    if (!answered.length) throw new Error(`${route} answered no account of ${sent.length}`);
    out.push(...answered.map((a) => (resent.has(a.id) ? lost.landed(a) : a)));
    rest = rest.slice(answered.length);
  }
  return out;
}

/** Roles of these accounts now (absent: no such account), 100 a request; ones the listing hides are asked one by one. */
async function lookUpRoles(client: WordPressClient, ids: readonly number[]): Promise<Map<number, string[]>> {
  const found = new Map<number, string[]>();
  for (const include of chunk([...new Set(ids)], 100)) {
    const page = await client.get<Array<{ id: number; roles?: string[] }>>('/wp/v2/users', { include, per_page: 100, context: 'edit', _fields: 'id,roles' });
    for (const u of page) found.set(u.id, [...(u.roles ?? [])].sort());
  }
  for (const id of ids.filter((id) => !found.has(id))) {
    try {
      const u = await client.get<{ roles?: string[] }>(`/wp/v2/users/${id}`, { context: 'edit', _fields: 'id,roles' });
      found.set(id, [...(u.roles ?? [])].sort());
    } catch (err) {
      if (!(err instanceof WordPressError && (err.status === 404 || err.code === 'rest_user_invalid_id'))) throw err;
    }
  }
  return found;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  const [x, y] = [[...a].sort(), [...b].sort()];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
