import { mapLimit, type WordPressClient, WordPressError } from '../../client/index.js';
import type { ToolContext } from '../define-tool.js';
import { COMPANION_NAMESPACE, hasCompanion, INSTALL_HINT } from '../companion.js';
import { answerBudget, defaultPageBudget } from '../answers/budget.js';
import { cursorError, decodeCursor, encodeCursor } from '../answers/cursor.js';
import { listPage } from '../answers/page.js';
import { ownAppPasswordUuid } from './accounts.js';
import { type AppPassword, loadAppPasswords } from './app-passwords.js';
import { usersWindow } from './users-window.js';

/**
 * list-app-passwords without user_id (#36): every account's application passwords the caller
 * may see, one row a password, paged with a cursor. The companion plugin (0.5.0) lists them all
 * in one request a page; without it each account is asked on its own, ACCOUNTS_PER_CALL a call.
 */

export type SweepRow = { user_id: number; username: string } & AppPassword & { used_by_this_toolkit?: true };

const TOOL = 'list-app-passwords';
/** Without the plugin: accounts asked in one call (one request each), so a call stays bounded. */
export const ACCOUNTS_PER_CALL = 100;
const DEFAULT_LIMIT = 50;

/** Stable order (ids and creation dates never change): pages neither repeat nor skip a row. */
const rowKey = (row: SweepRow) => `${String(row.user_id).padStart(12, '0')}|${row.created}|${row.uuid}`;

export async function sweepAppPasswords(context: ToolContext, paging: { limit?: number; cursor?: string }) {
  const { client } = context;
  const [me, own] = await Promise.all([client.connect(), ownAppPasswordUuid(client)]);
  // Marked, so no one revokes the toolkit's own access by mistake.
  const mark = (row: SweepRow): SweepRow =>
    row.uuid === own && row.user_id === me.id ? { ...row, used_by_this_toolkit: true } : row;
  if (await hasCompanion(client, 'app-passwords')) {
    return listPage(
      context,
      {
        key: rowKey,
        fetch: async ({ offset, count }) => {
          const page = await client.get<{ total: number; items: SweepRow[] }>(`/${COMPANION_NAMESPACE}/app-passwords`, {
            offset,
            per_page: count,
          });
          return { total: page.total, items: page.items.map(mark) };
        },
      },
      { tool: TOOL, filters: { via: 'plugin' }, ...paging, defaultLimit: DEFAULT_LIMIT, narrowWith: 'user_id' },
    );
  }
  return coreSweep(context, paging, mark);
}

/**
 * Without the plugin: the next accounts by id, each asked for its passwords. The cursor holds
 * the accounts checked and the passwords found so far (its `last`: "<last user id>:<found>"),
 * so the last page can say the total. A page ends at an account boundary.
 */
async function coreSweep(
  context: ToolContext,
  { limit, cursor }: { limit?: number; cursor?: string },
  mark: (row: SweepRow) => SweepRow,
) {
  const { client } = context;
  const filters = { via: 'core' };
  const state = cursor === undefined ? undefined : decodeCursor(TOOL, filters, cursor);
  const [lastId, foundBefore] = String(state?.last ?? '0:0').split(':').map(Number) as [number, number];
  const offset = state?.offset ?? 0;
  const { users, total: accounts, unseen } = await accountsWindow(client, { offset, count: ACCOUNTS_PER_CALL, knownTotal: state?.total });
  const first = users[0];
  if (state && ((first && first.id <= lastId) || accounts < state.total)) {
    throw cursorError(TOOL, 'the accounts changed since it was made');
  }
  let hidden = 0;
  const perUser = await mapLimit(users, client.concurrency, async (user) => {
    const items = unseen.has(user.id) ? undefined : await visiblePasswords(client, user.id);
    if (!items) hidden++;
    const ordered = (items ?? []).sort((a, b) => a.created.localeCompare(b.created) || a.uuid.localeCompare(b.uuid));
    return ordered.map((item) => mark({ user_id: user.id, username: user.username, ...item }));
  });
  // Whole accounts, while they fit the page size and the answer budget (at least one).
  const wanted = limit ?? DEFAULT_LIMIT;
  const budget = limit === undefined ? defaultPageBudget(context) : answerBudget(context);
  const rows: SweepRow[] = [];
  let taken = 0;
  for (const group of perUser) {
    const next = [...rows, ...group];
    if (taken > 0 && (next.length > wanted || JSON.stringify(next).length > budget * 0.9)) break;
    rows.push(...group);
    taken++;
  }
  const checked = offset + taken;
  const found = foundBefore + rows.length;
  const done = checked >= accounts || taken === 0;
  const answer: Record<string, unknown> = done ? { total: found } : {};
  Object.assign(answer, { items: rows, next_cursor: null, accounts_checked: checked, accounts_total: accounts });
  if (!done) {
    const last = users[taken - 1] as { id: number };
    answer.next_cursor = encodeCursor(TOOL, filters, { offset: checked, last: `${last.id}:${found}`, total: accounts });
    answer.more = `${found} found in accounts 1-${checked} of ${accounts}: pass cursor=next_cursor for the next accounts. Without the companion plugin each account is asked on its own; with it one call lists them all.`;
  }
  if (hidden) answer.note = `${hidden} account(s) skipped: WordPress does not let you list their application passwords.`;
  if (!done) answer.hint = INSTALL_HINT;
  return answer;
}

/** The accounts of a window by id, those the caller may not edit (`unseen`) in their place too. */
async function accountsWindow(client: WordPressClient, window: { offset: number; count: number; knownTotal?: number }) {
  const { items, total } = await usersWindow<{ id: number; username: string }>(client, { _fields: 'id,username' }, window);
  return {
    users: items.map((u) => u.editable ?? { id: u.id, username: u.slug }),
    total,
    unseen: new Set(items.filter((u) => !u.editable).map((u) => u.id)),
  };
}

/** The account's passwords, or undefined when the caller may not list them. */
async function visiblePasswords(client: WordPressClient, userId: number): Promise<AppPassword[] | undefined> {
  try {
    return await loadAppPasswords(client, userId);
  } catch (err) {
    const refused = err instanceof WordPressError && (err.status === 403 || err.status === 401);
    if (refused || (err as { code?: string }).code === 'account_stronger_than_caller') return undefined;
    throw err;
  }
}
