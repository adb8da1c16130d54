import { z } from 'zod';

/**
 * Schemas are sent to the model with every request, so their JSON is kept to the type:
 * zod's `.int()` adds `maximum: 9007199254740991` and bounds add `minimum`s, ~8 tokens a
 * field. The checks still run (invalid_params); only the JSON schema leaves them out.
 */
const typeOnly = { minimum: undefined, exclusiveMinimum: undefined, maximum: undefined };

/** A WordPress id: a positive integer. */
export const wpId = () => z.number().int().positive().meta(typeOnly);

/** A parent category id: a category id, or 0 for top level. */
export const parentId = () => z.number().int().nonnegative().meta(typeOnly);

/** A non-empty list of ids. */
export const wpIds = () => z.array(wpId()).min(1);

/** A term name: trimmed, not empty. */
export const termName = () => z.string().trim().min(1).meta({ minLength: undefined });
