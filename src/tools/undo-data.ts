/**
 * What a tool's undo declaration (`ToolUndo` in define-tool.ts) speaks in: plain values the
 * journal keeps, read and restored by the undo engine (src/undo/), which sits above the tools.
 * No imports, so any module may use them.
 */

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
  /** Absent in entries before import-users (#50): compared and restored only where both have them. */
  first_name?: string;
  last_name?: string;
  url?: string;
}

/**
 * What a bulk account write did to one account's roles, as its route answered at the moment of
 * the change (#59): the journal keeps these accounts only, with these roles, never the plan.
 */
export interface AccountRolesDone {
  before: string[];
  after: string[];
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

/** A role on the site (companion plugin 0.6.0): its name and capabilities, denied ones false. */
export interface RoleState {
  name: string;
  capabilities: Record<string, boolean>;
}

export interface UndoState {
  taxonomy?: TaxonomyRef;
  /** Roles by slug (create-role, update-role, delete-role); null = it did not exist. */
  roles?: Record<string, RoleState | null>;
  /** Accounts' own capability entries (granted true, denied false), by user id (update-user-capabilities). */
  user_caps?: Record<string, Record<string, boolean> | null>;
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
  /**
   * A second taxonomy the same call changed (migrate-terms, #51: the source taxonomy beside the
   * target), as its own state: restored first, by the same engine.
   */
  also?: UndoState;
}

/**
 * What a call's own answers say it did (`ToolUndo.done`), journalled as done instead of the
 * difference of the reads around it (#47.2, #59): posts' term changes item by item as the site
 * answered them; `terms`, terms whose write's answer was lost (#59.12: it may still land after
 * the read after the call), recorded as the call would leave them (null = deleted; fields over
 * the read) — an undo compares with the site, so one that never landed is skipped. `also`: the
 * same for the second taxonomy (migrate-terms' source).
 */
export interface DoneState {
  post_changes?: Record<string, PostTermChange>;
  /**
   * Posts' changes whose answer was lost (#59.12): recorded as made, less what each post had
   * before the call (its terms read before it, `before.posts`), so an undo takes off only what
   * the call could have added and gives back only what it could have removed.
   */
  maybe_post_changes?: Record<string, PostTermChange>;
  terms?: Record<string, Partial<TermState> | null>;
  also?: DoneState;
  /** Accounts' roles as a bulk route saw and set them (#59): the only accounts journalled, none read after. */
  account_roles?: Record<string, AccountRolesDone>;
  /** …or, with this, laid over the accounts read before and after the call (import-users' updates). */
  account_roles_over_reads?: true;
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
  /**
   * Of `users`, those the scope already read (as readState reads them), so they are not read
   * again (#61: set-users-role's plan is the journal's state before). Not kept in the intent.
   */
  knownUsers?: Record<string, UserState | null>;
  /** Roles by slug: their capabilities and name (restore-roles.ts). */
  roles?: readonly string[];
  /** Users whose own capability grants and denials the call changes. */
  userCaps?: readonly number[];
  /** Network accounts whose memberships and super admin state the call changes (companion plugin 0.5.0). */
  networkUsers?: readonly number[];
  /** A user deleted with their content: their posts and pages outside the Trash (restore-trash.ts). */
  trashOf?: number;
  /** What an undo of the call cannot give back, in words; kept in the entry's `before`. */
  notRestorable?: readonly string[];
  /**
   * What a create will make, found by name rather than id (the id is only in its answer): read
   * before the write (`existed`), so an intent whose process died can find what it created
   * (issue #47: undo of an incomplete create).
   */
  locate?: CreateLocator & { existed?: { terms?: number[]; users?: number[] } };
  /** A second taxonomy's objects the call changes (migrate-terms' source), read the same way. */
  also?: UndoScope;
}

/** A term by its name or slug (in the scope's taxonomy), a user by login. */
export interface CreateLocator {
  term?: { name?: string; slug?: string };
  user?: { username: string };
  /**
   * Many accounts a bulk create will make (import-users): those of these logins with an id above
   * `after`, the highest account id before the write. Found by paging the newest accounts, so a
   * crashed import of thousands costs a page per hundred accounts made, not a request per login.
   */
  newUsers?: { after: number; usernames: readonly string[] };
  /**
   * Many terms a bulk write will create in the scope's taxonomy (migrate-terms' targets, #59.4),
   * by slug: what goes by one of them now and did not before the write is what it made.
   */
  termSlugs?: readonly string[];
}

/** The taxonomy fields an entry keeps (what the post-terms code needs), copied from a term kind. */
export function taxonomyRef(kind: TaxonomyRef): TaxonomyRef {
  const { taxonomy, route, postsParam, noun, plural, hierarchical } = kind;
  return { taxonomy, route, postsParam, noun, ...(plural ? { plural } : {}), hierarchical };
}
