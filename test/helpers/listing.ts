import { expect } from 'vitest';
import type { ToolContext } from '../../src/call/index.js';
import { call, callOk, callOkIn, testContext } from './site.js';

export interface Page<T = Record<string, any>> {
  total: number;
  items: T[];
  next_cursor: string | null;
  more?: string;
  note?: string;
  [key: string]: unknown;
}

/**
 * Follows next_cursor from the first call to the end, as a model would, and returns every
 * item, the pages, the largest answer in characters and the HTTP requests it took.
 */
export async function walk<T = Record<string, any>>(
  tool: string,
  params: Record<string, unknown> = {},
  context: ToolContext = testContext(),
) {
  await context.client.connect();
  const before = context.client.stats.requests;
  const pages: Page<T>[] = [];
  let cursor: string | undefined;
  do {
    const page: Page<T> = await callOkIn(context, tool, cursor ? { ...params, cursor } : params);
    pages.push(page);
    cursor = page.next_cursor ?? undefined;
    expect(pages.length).toBeLessThan(1000);
  } while (cursor);
  return {
    items: pages.flatMap((page) => page.items),
    pages,
    largest: Math.max(...pages.map((page) => JSON.stringify(page).length)),
    requests: context.client.stats.requests - before,
  };
}

/** Ids in the order given; and a check that none repeats. */
export function idsOnce(items: Array<{ id: number }>): number[] {
  const ids = items.map((item) => item.id);
  expect(new Set(ids).size).toBe(ids.length);
  return ids;
}

export const ascending = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** The cursor errors every list tool gives: malformed, foreign and for other filters. */
export async function expectCursorErrors(tool: string, otherTool: string, filters: Record<string, unknown>) {
  const foreign = (await callOk<Page>(otherTool, { limit: 1 })).next_cursor;
  const mine = (await callOk<Page>(tool, { limit: 1 })).next_cursor;
  expect(foreign).toBeTruthy();
  expect(mine).toBeTruthy();
  for (const [cursor, params] of [
    ['not-a-cursor', {}],
    [foreign, {}],
    [mine, filters],
  ] as const) {
    const outcome = await call(tool, { ...params, cursor });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) continue;
    expect(outcome.error.code).toBe('invalid_cursor');
    expect(outcome.error.hint).toContain('without cursor');
  }
  for (const limit of [0, 501]) {
    const outcome = await call(tool, { limit });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toMatch(/limit.*(1|500)/);
  }
}

/** `"1-3, 7"` → `[1, 2, 3, 7]`: the id ranges of a bulk answer (see src/tools/answers/bulk.ts). */
export function expandIds(ranges: string): number[] {
  expect(ranges).not.toMatch(/more/);
  if (!ranges.trim()) return [];
  return ranges.split(',').flatMap((part) => {
    const [from, to] = part.trim().split('-').map(Number) as [number, number | undefined];
    return to === undefined ? [from] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

export interface BulkAnswer {
  updated: number;
  unchanged: number;
  failed: number;
  updated_ids: string;
  unchanged_ids: string;
  failures: Array<{ post_ids: string; code: string; message: string }>;
  failure_reasons_not_listed?: number;
}

/** A bulk answer as one entry per post, for checks against the site. */
export function perPost(answer: BulkAnswer) {
  const failed = answer.failures.flatMap((f) =>
    expandIds(f.post_ids).map((post_id) => ({ post_id, error: { code: f.code, message: f.message } })),
  );
  expect(answer.failure_reasons_not_listed).toBeUndefined();
  expect(failed).toHaveLength(answer.failed);
  return { updated: expandIds(answer.updated_ids), unchanged: expandIds(answer.unchanged_ids), failed };
}
