import { z } from 'zod';

/**
 * What the tools return, as zod schemas: each tool's `outputSchema` (MCP lists it as the tool's
 * `outputSchema`, and `tools/call` returns the result as `structuredContent` that validates
 * against it). Loose objects: the fields a client can rely on are named and typed; a tool may
 * add more (notes, next_cursor, failure lists), so a new field is not a breaking change.
 */
const id = z.number().int();
const entry = z.looseObject({});

/** The list tools: one page `{total, items, next_cursor}` (null on the last page; + `more`, `note`). */
export const listOutput = z.looseObject({
  total: z.number().int(),
  items: z.array(entry),
  next_cursor: z.string().nullable(),
});

/** A category or tag as created or updated. */
export const termOutput = z.looseObject({ id, name: z.string() });

/** delete-category / delete-tag. */
export const deletedTermOutput = z.looseObject({ deleted: z.looseObject({ id, name: z.string() }) });

/** merge-categories: the plan (dry_run) or the report; both name the target. */
export const mergeOutput = z.looseObject({ target_id: id });

/** assign-*-to-posts: counts, id ranges done, failed posts by reason (answers/bulk.ts). */
export const assignOutput = z.looseObject({
  updated: z.number().int(),
  unchanged: z.number().int(),
  failed: z.number().int(),
  updated_ids: z.string(),
  unchanged_ids: z.string(),
  failures: z.array(z.looseObject({ post_ids: z.string(), code: z.string(), message: z.string() })),
});

/** create-role, update-role, delete-role: the role acted on. */
export const roleOutput = z.looseObject({ role: z.string() });

/** A user tool's answer: which user it acted on. */
export const userOutput = z.looseObject({ id, username: z.string() });

/** undo-change: what was restored, and what was left because it changed since (docs/undo.md). */
export const undoOutput = z.looseObject({
  change_id: z.string(),
  restored: z.array(z.string()),
  conflicts: z.array(z.looseObject({ item: z.string(), reason: z.string() })),
  skipped: z.array(z.string()),
});

/** A write tool's dry run (`dry_run: true`): what it would change, nothing written. */
export const previewOutput = z.looseObject({ dry_run: z.literal(true) });

/**
 * list-app-passwords: one user's passwords (user_id, username), or without user_id every
 * account's, paged (next_cursor; `total` unless accounts are left to check without the plugin).
 */
export const appPasswordsOutput = z.looseObject({
  user_id: id.optional(),
  username: z.string().optional(),
  total: z.number().int().optional(),
  items: z.array(entry),
  next_cursor: z.string().nullable().optional(),
});

/** list-user-sessions: one user's entries, all of them (a user has few). */
export const accountListOutput = z.looseObject({
  user_id: id,
  username: z.string(),
  total: z.number().int(),
  items: z.array(entry),
});

/** recount-terms (#51): how many terms were checked, which stored counts changed. */
export const recountOutput = z.looseObject({ taxonomy: z.string() });

/** The clean-up writes (#51): prune-terms and set-terms-parent name their taxonomy. */
export const cleanupOutput = z.looseObject({ taxonomy: z.string() });

/** migrate-terms: both taxonomies and, per term, where it went. */
export const migrateOutput = z.looseObject({ from_taxonomy: z.string(), to_taxonomy: z.string() });
/** set-users-role and import-users: counts by outcome, then each account or row (bounded). */
export const bulkAccountsOutput = z.looseObject({ counts: z.record(z.string(), z.number().int()) });
