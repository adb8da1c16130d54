/** The undo engine's data: plain values kept in the journal (no imports, so any module may use them). */

/**
 * What an undo needs of the site, as plain data kept in the journal: the objects one call
 * touches (terms, posts' terms in one taxonomy, users), each as it was. `null` = it did not
 * exist (a term before it was created, after it was deleted). The same shape is read before a
 * write (`before`), after it (`after`), and is what an undo restores (src/undo/restore.ts).
 */
export interface TermState {
  name: string;
  slug: string;
  description: string;
  /** Hierarchical taxonomies; 0 = top level. */
  parent: number;
  /**
   * Registered term meta as REST shows it in `meta` (register_term_meta with show_in_rest),
   * given back when a deleted or merged-away term is recreated. Absent in older entries.
   */
  meta?: Record<string, unknown>;
}

export interface UserState {
  username: string;
  email: string;
  name: string;
  bio: string;
  roles: string[];
  /** null without the companion plugin (unknown, left alone). */
  disabled: boolean | null;
}

/** The taxonomy an entry's terms and posts belong to (what the post-terms code needs). */
export interface TaxonomyRef {
  taxonomy: string;
  route: string;
  postsParam: string;
  noun: string;
  plural?: string;
  hierarchical: boolean;
}

/** What one call did to one post's terms in the taxonomy: its own change, not other writers'. */
export interface PostTermChange {
  added: number[];
  removed: number[];
}

/** A post a change moved to the Trash (delete-user with delete_content), as it was before. */
export interface TrashedPost {
  /** The post type's REST route, e.g. /wp/v2/pages. */
  route: string;
  status: string;
  slug: string;
  title: string;
}

/** A network account's place on a multisite network (docs/multisite.md): super admin, role per site id. */
export interface NetworkUserState {
  username: string;
  super_admin: boolean;
  sites: Record<string, string[]>;
}

export interface UndoState {
  taxonomy?: TaxonomyRef;
  /** Network accounts (add-user-to-site, remove-user-from-site, grant/revoke-super-admin). */
  network_users?: Record<string, NetworkUserState | null>;
  terms?: Record<string, TermState | null>;
  /**
   * Post id → its term ids in `taxonomy`, sorted. Entries before #34.4 kept whole lists; new
   * ones keep `post_changes` in `after` instead (whole lists hold other writers' changes).
   */
  posts?: Record<string, number[]>;
  /** In `after`: per post, the terms this call added and removed (an undo reverses exactly these). */
  post_changes?: Record<string, PostTermChange>;
  users?: Record<string, UserState | null>;
  /** In `before`: posts the call moved to the Trash (id → as they were); an undo takes them out. */
  trashed?: Record<string, TrashedPost>;
  /** What an undo of this change cannot give back, in words (a deleted account). */
  not_restorable?: string[];
  /** In an undo entry's `after`: term ids recreated by it, old → new. */
  id_map?: Record<string, number>;
}

/** Which objects a call touches: read before and after it. */
export interface UndoScope {
  taxonomy?: TaxonomyRef;
  terms?: readonly number[];
  posts?: readonly number[];
  /**
   * The terms this call adds to or removes from `posts` (and the default category, which
   * WordPress files emptied posts under): the journal keeps each post's change in these only.
   */
  postTerms?: readonly number[];
  users?: readonly number[];
  /** Network accounts whose memberships and super admin state the call changes (companion plugin 0.5.0). */
  networkUsers?: readonly number[];
  /** A user deleted with their content: their posts and pages outside the Trash (restore-trash.ts). */
  trashOf?: number;
  /** What an undo of the call cannot give back, in words; kept in the entry's `before`. */
  notRestorable?: readonly string[];
}

export interface ItemConflict {
  item: string;
  reason: string;
  /** A write that failed (a fault, not someone's edit): the undo is incomplete, a rerun finishes it. */
  failed?: true;
}

/** What one restore did (or, in a dry run, would do), item by item. */
export interface RestoreOutcome {
  restored: string[];
  conflicts: ItemConflict[];
  /** Items already as they were before: nothing to write (a second run after a fault). */
  skipped: string[];
  /** The site before the restore and after it, keyed by today's ids (the undo entry's before/after). */
  current: UndoState;
  result: UndoState;
  /** Terms recreated with new ids: old → new. */
  idMap: Record<string, number>;
  /** What the restore did to posts' terms (its own change, for its journal entry). */
  postChanges?: Record<string, PostTermChange>;
  /** Posts taken out of the Trash by this restore. */
  untrashed?: string[];
  /** A write of the restore failed (not a conflict): running the undo again finishes it. */
  failed?: boolean;
}

export interface RestoreOptions {
  force?: boolean;
  dryRun?: boolean;
}

export function message(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/** Sets one object's state in `state` (creating the record). */
export function put<K extends 'terms' | 'posts' | 'users'>(
  state: UndoState,
  key: K,
  id: number | string,
  value: NonNullable<UndoState[K]>[string],
): void {
  const record = (state[key] ?? {}) as Record<string, unknown>;
  record[String(id)] = value;
  state[key] = record as UndoState[K];
}

/** A write of the restore that failed: said like a conflict, and the undo marked incomplete. */
export function writeFailed(out: RestoreOutcome, item: string, reason: string): void {
  out.conflicts.push({ item, reason, failed: true });
  out.failed = true;
}
