import { z } from 'zod';
import { text, typeOnly } from '../schema.js';
import type { ToolContext } from '../define-tool.js';
import { answerBudget, defaultPageBudget } from './budget.js';
import { type CursorState, cursorError, decodeCursor, encodeCursor } from './cursor.js';

export const MAX_LIMIT = 500;

/** The paging parameters every list tool adds to the spec's (kept short: sent on every request). */
export const pagingParams = {
  limit: z.number().int().min(1).max(MAX_LIMIT).meta(typeOnly).optional(),
  cursor: text(2000).optional(),
};

/** One listing's items in a stable order, a window at a time. */
export interface ListSource<T> {
  /**
   * `count` items from `offset` in the listing's order, and how many match in all; `snapshot`:
   * the id of a listing the site keeps for the next pages (given back with the next window).
   */
  fetch(window: { offset: number; count: number; knownTotal?: number; snapshot?: string }): Promise<{ items: T[]; total: number; snapshot?: string }>;
  /** The order key (id or slug): strictly increasing along the listing. */
  key(item: T): number | string;
}

export interface ListPage {
  total: number;
  items: unknown[];
  next_cursor: string | null;
  /** One line when the answer stops before the end: how many more, and how to narrow. */
  more?: string;
}

export interface ListRequest {
  tool: string;
  /** The filters the listing depends on (the cursor is bound to them). */
  filters: Record<string, unknown>;
  limit?: number;
  cursor?: string;
  defaultLimit: number;
  /** How to narrow, for the `more` line, e.g. "search, parent". */
  narrowWith: string;
}

/**
 * A page of a listing as `{ total, items, next_cursor }`, fitted to the answer budget by
 * dropping items from its end (their cursor then starts at the first one dropped).
 * Following next_cursor to the end yields every item once, in the source's order.
 */
export async function listPage<T>(
  context: ToolContext,
  source: ListSource<T>,
  request: ListRequest,
  extra: Record<string, unknown> = {},
): Promise<ListPage & Record<string, unknown>> {
  const { tool, filters } = request;
  const state = request.cursor === undefined ? undefined : decodeCursor(tool, filters, request.cursor);
  const offset = state?.offset ?? 0;
  const limit = request.limit ?? request.defaultLimit;
  const { items, total, snapshot } = await source.fetch({ offset, count: limit, knownTotal: state?.total, snapshot: state?.snapshot });
  if (state) checkFresh(tool, source, state, items, total);

  const budget = request.limit === undefined ? defaultPageBudget(context) : answerBudget(context);
  const build = (count: number): ListPage & Record<string, unknown> => {
    const shown = items.slice(0, count);
    const reached = offset + shown.length;
    const lastItem = shown[shown.length - 1];
    const hasMore = reached < total && lastItem !== undefined;
    const page: ListPage & Record<string, unknown> = {
      total,
      items: shown,
      next_cursor: hasMore ? encodeCursor(tool, filters, { offset: reached, last: source.key(lastItem), total, snapshot }) : null,
      ...extra,
    };
    if (hasMore) {
      const left = total - reached;
      page.more = `${left} more: pass cursor=next_cursor, or narrow with ${request.narrowWith}.`;
    }
    return page;
  };
  // The largest number of items whose answer fits (binary search: sizes grow with count).
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (JSON.stringify(build(mid)).length <= budget) low = mid;
    else high = mid - 1;
  }
  return build(Math.max(low, Math.min(1, items.length)));
}

/**
 * The listing changed since the cursor was made if its first item does not sort after the last
 * one returned (something before it appeared), or fewer items match (something before the
 * offset may have gone, and an item would be skipped). New items sort last and are harmless.
 */
function checkFresh<T>(tool: string, source: ListSource<T>, state: CursorState, items: T[], total: number) {
  const first = items[0];
  const before = first !== undefined && compareKeys(source.key(first), state.last) <= 0;
  if (before || total < state.total) throw cursorError(tool, 'the listing changed since it was made');
}

export function compareKeys(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** A ListSource over a list already in memory (taxonomies, roles, date-filtered users). */
export function memorySource<T>(all: T[], key: (item: T) => number | string): ListSource<T> {
  const sorted = [...all].sort((a, b) => compareKeys(key(a), key(b)));
  return {
    key,
    fetch: async ({ offset, count }) => ({ items: sorted.slice(offset, offset + count), total: sorted.length }),
  };
}

/** Case-insensitive substring search over a few fields, as WordPress's own `search` does. */
export function matches(search: string | undefined, ...fields: string[]): boolean {
  if (search === undefined) return true;
  const wanted = search.trim().toLowerCase();
  return fields.some((field) => field.toLowerCase().includes(wanted));
}
