import { createContext } from '../../src/config.js';
import type { ToolContext } from '../../src/call/index.js';
import type { ChangeJournal } from '../../src/undo/journal.js';
import type { UndoReport } from '../../src/undo/undo.js';
import { testSite } from '../helpers/site.js';

/** Helpers of the undo acceptance tests (issue #24). */

/** A fresh context on the test site (own client and request counter) that journals its writes. */
export function journaled(journal: ChangeJournal, base: ToolContext = createContext(testSite())): ToolContext {
  return Object.assign(base, { journal });
}

/** The error of an undo that throws, or its report. */
export async function attempt(
  run: Promise<UndoReport>,
): Promise<{ report?: UndoReport; error?: Error & { code?: string } }> {
  try {
    return { report: await run };
  } catch (error) {
    return { error: error as Error & { code?: string } };
  }
}
