import type { DoneState, PostTermChange } from '../tools/undo-data.js';
import { put, type UndoState } from './types.js';

/**
 * What a tool's answers say it did (`ToolUndo.done`, tools/undo-data.ts `DoneState`), applied to
 * the entry record.ts journals (#59): changes whose answer was lost are recorded as made, so an
 * undo — which compares with the site — gives back whatever landed, also after the answer.
 */

/** Posts' changes that may have been made (#59.12) beside those known, less what each post had before. */
export function maybeDone(
  before: UndoState,
  known: Record<string, PostTermChange> | undefined,
  maybe: Record<string, PostTermChange> | undefined,
): Record<string, PostTermChange> | undefined {
  if (!maybe) return known;
  const out = { ...known };
  for (const [id, change] of Object.entries(maybe)) {
    const had = before.posts?.[id];
    const added = change.added.filter((t) => !had?.includes(t));
    const removed = change.removed.filter((t) => !had || had.includes(t));
    if (added.length || removed.length) out[id] = { added, removed };
  }
  return out;
}

/** Terms recorded as the call would leave them, over what the read after it found. */
export function mayHaveDone(after: UndoState, terms: DoneState['terms']): void {
  for (const [id, state] of Object.entries(terms ?? {})) {
    const read = after.terms?.[id];
    if (state === null) put(after, 'terms', Number(id), null);
    else if (read) put(after, 'terms', Number(id), { ...read, ...state });
  }
}

