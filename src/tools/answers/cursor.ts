import { createRequire } from 'node:module';

// node:crypto (~20 internal modules) loads when a cursor is first made or read, not at every start (#35).
const require = createRequire(import.meta.url);
import { ToolError } from '../tool-error.js';

/** Where the next page starts, and what the listing looked like when the cursor was made. */
export interface CursorState {
  /** Items already returned (the next page's offset in the listing's stable order). */
  offset: number;
  /** Order key (id or slug) of the last item returned: the next page's first must sort after it. */
  last: number | string;
  /** The listing's total then; fewer now means items before the offset may have gone. */
  total: number;
  /** A listing the site keeps for its next pages (find-duplicate-terms' snapshot id), if any. */
  snapshot?: string;
}

interface Encoded {
  v: 1;
  t: string;
  f: string;
  o: number;
  l: number | string;
  n: number;
  s?: string;
}

/** Short fingerprint of a tool's filters, so a cursor only continues the listing it came from. */
function fingerprint(filters: Record<string, unknown>): string {
  const sorted = Object.keys(filters)
    .filter((key) => filters[key] !== undefined)
    .sort()
    .map((key) => [key, filters[key]]);
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(JSON.stringify(sorted)).digest('base64url').slice(0, 10);
}

/** An opaque cursor bound to the tool and its filters. */
export function encodeCursor(tool: string, filters: Record<string, unknown>, state: CursorState): string {
  const payload: Encoded = { v: 1, t: tool, f: fingerprint(filters), o: state.offset, l: state.last, n: state.total };
  if (state.snapshot !== undefined) payload.s = state.snapshot;
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function cursorError(tool: string, why: string): ToolError {
  return new ToolError('invalid_cursor', `This cursor cannot continue the listing: ${why}.`, {
    hint: `Call ${tool} again without cursor (same filters) to start from the first page.`,
  });
}

/** The state in `cursor`, or an invalid_cursor error when it is malformed or from another listing. */
export function decodeCursor(tool: string, filters: Record<string, unknown>, cursor: string): CursorState {
  let payload: Partial<Encoded>;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Encoded>;
  } catch {
    throw cursorError(tool, 'it is not a cursor this toolkit made');
  }
  const valid =
    payload &&
    payload.v === 1 &&
    Number.isInteger(payload.o) &&
    (payload.o ?? -1) >= 0 &&
    Number.isInteger(payload.n) &&
    (typeof payload.l === 'number' || typeof payload.l === 'string');
  if (!valid) throw cursorError(tool, 'it is not a cursor this toolkit made');
  if (payload.t !== tool) {
    const from = typeof payload.t === 'string' && /^[a-z-]{1,40}$/.test(payload.t) ? payload.t : 'another tool';
    throw cursorError(tool, `it came from ${from}, not ${tool}`);
  }
  if (payload.f !== fingerprint(filters)) throw cursorError(tool, 'it was made with other filters');
  const snapshot = typeof payload.s === 'string' ? { snapshot: payload.s } : {};
  return { offset: payload.o as number, last: payload.l as number | string, total: payload.n as number, ...snapshot };
}
