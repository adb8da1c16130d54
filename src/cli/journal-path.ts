import { siteJournal } from '../undo/journal-path.js';

export { defaultJournalPath, stateHome } from '../undo/journal-path.js';

/** The flag every surface that writes takes (chat, invoke, mcp; changes and undo read it). */
export const JOURNAL_FLAG = [
  '--journal <file>',
  'the change journal that makes writes undoable (default: env CMS_JOURNAL, else one per site in ~/.local/state/cms-admin/changes; off: none)',
] as const;

/** The journal for a site: `--journal`, else CMS_JOURNAL, else a per-site file; 'off' for none. */
export function cliJournal(flag: string | undefined, siteUrl: string): string {
  return siteJournal(siteUrl, flag || process.env.CMS_JOURNAL || undefined);
}
