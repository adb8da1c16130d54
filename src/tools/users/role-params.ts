import { z } from 'zod';
import { typeOnly } from '../schema.js';

/** Capability names as params, checked here, sent as plain strings (schemas go with every request). */
export const capName = () => z.string().trim().regex(/^[A-Za-z0-9_-]{1,100}$/).meta({ ...typeOnly, pattern: undefined });
export const capList = () => z.array(capName()).max(200).meta({ maxItems: undefined });
export const roleSlug = () => z.string().trim().regex(/^[a-z0-9_-]{1,100}$/).meta({ ...typeOnly, pattern: undefined });
