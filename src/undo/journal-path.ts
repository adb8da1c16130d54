import { homedir } from 'node:os';
import path from 'node:path';

/** The user's state folder, as the XDG base directories define it. */
export function stateHome(): string {
  return process.env.XDG_STATE_HOME || path.join(homedir(), '.local', 'state');
}

/** `~/.local/state/cms-admin/changes.db`: one change store per person, every site in it (issue #47). */
export function defaultStorePath(): string {
  return path.join(stateHome(), 'cms-admin', 'changes.db');
}

/**
 * The journal a site's writes go to when none was chosen: `CMS_JOURNAL`, else the person's
 * change store (its folder is made, 0700, when it is first opened). The CLI and the toolkits
 * share it, so `cms-admin undo` can take back what an app's agent did and the other way round;
 * each entry names its site, and a context reads only its own site's. 'off' (or '') when
 * CMS_JOURNAL=off.
 */
export function siteJournal(_siteUrl: string, chosen = process.env.CMS_JOURNAL): string {
  return chosen || storeJournal() || defaultStorePath();
}

/**
 * CMS_STORE when it is a PostgreSQL URL (the store `mcp --http` replicas share, issue #49): the
 * change journal of every command that has none chosen by --journal or CMS_JOURNAL, so
 * `cms-admin changes` and `undo` read what the replicas did.
 */
export function storeJournal(): string | undefined {
  const store = process.env.CMS_STORE;
  return store && /^postgres(ql)?:\/\//i.test(store) ? store : undefined;
}
