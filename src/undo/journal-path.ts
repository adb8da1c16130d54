import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** The user's state folder, as the XDG base directories define it. */
export function stateHome(): string {
  return process.env.XDG_STATE_HOME || path.join(homedir(), '.local', 'state');
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

/**
 * The journal a site's writes go to when none was chosen: `CMS_JOURNAL`, else the per-site file
 * (its folder made, 0700). The CLI and the toolkits share it, so `cms-admin undo` can take back
 * what an app's agent did and the other way round. 'off' (or '') when CMS_JOURNAL=off.
 */
export function siteJournal(siteUrl: string, chosen = process.env.CMS_JOURNAL): string {
  if (chosen) return chosen;
  const file = defaultJournalPath(siteUrl);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return file;
}
