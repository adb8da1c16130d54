import { z } from 'zod';

/**
 * What the tools return, as zod schemas: each tool's `outputSchema` (MCP lists it as the tool's
 * `outputSchema`, and `tools/call` returns the result as `structuredContent` that validates
 * against it). Loose objects: the fields a client can rely on are named and typed; a tool may
 * add more (notes, next_cursor, failure lists), so a new field is not a breaking change.
 */
const id = z.number().int();
const entry = z.looseObject({});

/** The list tools: `{total, items}` (+ `next_cursor`, `note` where the tool has them). */
export const listOutput = z.looseObject({ total: z.number().int(), items: z.array(entry) });

/** A category or tag as created or updated. */
export const termOutput = z.looseObject({ id, name: z.string() });

/** delete-category / delete-tag. */
export const deletedTermOutput = z.looseObject({ deleted: z.looseObject({ id, name: z.string() }) });

/** merge-categories: the plan (dry_run) or the report; both name the target. */
export const mergeOutput = z.looseObject({ target_id: id });

/** assign-*-to-posts: a report of what changed; its shape is per tool (bounded counts). */
export const assignOutput = z.looseObject({});

/** A user tool's answer: which user it acted on. */
export const userOutput = z.looseObject({ id, username: z.string() });
