import type { ToolError } from '../tools/tool-error.js';
import { siteJournal } from '../undo/journal-path.js';
import { sqliteError, sqliteProblem } from '../undo/sqlite.js';

export { defaultStorePath, stateHome } from '../undo/journal-path.js';

/** The flag every surface that writes takes (chat, invoke, mcp; changes and undo read it). */
export const JOURNAL_FLAG = [
  '--journal <file>',
  'the change journal that makes writes undoable (a SQLite file holding the changes of every site, or postgres://…; default: env CMS_JOURNAL, else CMS_STORE when postgres://…, else ~/.local/state/cms-admin/changes.db; off: none)',
] as const;

/** The journal for a site: `--journal`, else CMS_JOURNAL, else the person's change store; 'off' for none. */
export function cliJournal(flag: string | undefined, siteUrl: string): string {
  return siteJournal(siteUrl, flag || process.env.CMS_JOURNAL || undefined);
}

/**
 * At the start of a command that opens the change store (a SQLite file: not off, not
 * PostgreSQL): the refusal when this Node has no node:sqlite (undo/sqlite.ts says which Node it
 * needs and how to get it), before anything reaches a site (#60.7).
 */
export function storeNodeRefusal(options: { journal?: unknown; store?: unknown }): ToolError | undefined {
  const chosen = [options.journal, options.store].find((o): o is string => typeof o === 'string' && o !== '');
  const journal = siteJournal('', chosen || process.env.CMS_JOURNAL || undefined);
  if (!journal || journal === 'off' || /^postgres(ql)?:\/\//i.test(journal)) return undefined;
  const problem = sqliteProblem();
  return problem ? sqliteError(problem) : undefined;
}
