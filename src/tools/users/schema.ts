import { z } from 'zod';

/**
 * Schemas go to the model with every request, so their JSON keeps only the type: zod's
 * `.int()` adds `maximum: 9007199254740991`, bounds add `minimum`/`minLength`, ~8 tokens a
 * field. The checks still run (invalid_params); only the JSON schema leaves them out.
 */
const typeOnly = {
  minimum: undefined,
  exclusiveMinimum: undefined,
  maximum: undefined,
  minLength: undefined,
  maxLength: undefined,
};

/** A user id: a positive integer. */
export const userId = () => z.number().int().positive().meta(typeOnly).describe('User id');

/** A required, non-empty string. */
export const text = (max = 1000) => z.string().min(1).max(max).meta(typeOnly);
