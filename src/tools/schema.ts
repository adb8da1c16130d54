import { z } from 'zod';

/**
 * Shared parameter schemas. Schemas go to the model with every request, so their JSON keeps
 * only the type: zod's `.int()` adds `maximum: 9007199254740991` and bounds add
 * `minimum`/`minLength`, ~8 tokens a field. The checks still run (invalid_params); only the
 * JSON schema leaves them out.
 *
 * Convention: a tool's own resource is `id`, left undescribed — "the id of the category" is
 * what update-category's `id` means, and saying so costs tokens on every request.
 */
export const typeOnly = {
  minimum: undefined,
  exclusiveMinimum: undefined,
  maximum: undefined,
  minLength: undefined,
  maxLength: undefined,
};

/** A WordPress id: a positive integer. */
export const wpId = () => z.number().int().positive().meta(typeOnly);

/** A parent category id: a category id, or 0 for top level. */
export const parentId = () => z.number().int().nonnegative().meta(typeOnly);

/** A non-empty list of ids. */
export const wpIds = () => z.array(wpId()).min(1).meta({ minItems: undefined });

/** A term name: trimmed, not empty. */
export const termName = () => z.string().trim().min(1).meta(typeOnly);

/** A required, non-empty string of at most `max` characters. */
export const text = (max = 1000) => z.string().min(1).max(max).meta(typeOnly);

/** A taxonomy's slug as list-taxonomies shows it (WordPress allows 32 characters). */
export const taxonomySlug = () => text(32);

/** An optional term URL slug; WordPress lowercases it and turns spaces into dashes. */
export const termSlug = () => z.string().trim().min(1).meta(typeOnly).optional();

/**
 * Params sent without a description: their name (and type) says what they are, and each
 * description is sent with every request. Every other param is `.describe()`d (registry test).
 */
export const SELF_DESCRIBING_PARAMS: ReadonlySet<string> = new Set([
  'id',
  'dry_run',
  'user_id',
  'post_ids',
  'term_ids',
  'category_ids',
  'tag_ids',
  'source_ids',
  'target_id',
  'taxonomy',
  'name',
  'email',
  'role',
  'slug',
  'description',
  'bio',
  'reason',
  'search',
  'hide_empty',
  'before',
  'limit',
  'cursor',
  'add_capabilities',
  'remove_capabilities',
  'deny_capabilities',
  'capability',
  'capabilities',
  'clone_from',
  'add_roles',
  'remove_roles',
]);
