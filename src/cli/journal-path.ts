import { siteJournal } from '../undo/journal-path.js';

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
