import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** The flag every surface that writes takes (chat, invoke, mcp; changes and undo read it). */
export const JOURNAL_FLAG = [
  '--journal <file>',
  'the change journal that makes writes undoable (default: env CMS_JOURNAL, else one per site in ~/.local/state/cms-admin/changes; off: none)',
] as const;

/** The user's state folder, as the XDG base directories define it. */
export function stateHome(): string {
  return process.env.XDG_STATE_HOME || path.join(homedir(), '.local', 'state');
}

/** The journal for a site: `--journal`, else CMS_JOURNAL, else a per-site file; 'off' for none. */
export function cliJournal(flag: string | undefined, siteUrl: string): string {
  const chosen = flag ?? process.env.CMS_JOURNAL;
  if (chosen) return chosen;
  const file = defaultJournalPath(siteUrl);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return file;
}

/** `~/.local/state/cms-admin/changes/example.com.jsonl`, `…/127.0.0.1_8881.jsonl`. */
export function defaultJournalPath(siteUrl: string): string {
  const url = new URL(siteUrl);
  const key = `${url.hostname}${url.port ? `_${url.port}` : ''}${url.pathname.replace(/\/+$/, '')}`.replace(
    /[^a-zA-Z0-9._-]+/g,
    '_',
  );
  return path.join(stateHome(), 'cms-admin', 'changes', `${key}.jsonl`);
}
