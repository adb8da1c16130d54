import { z } from 'zod';

/** Capability names as params: short, the same words WordPress uses. */
export const capList = () => z.array(z.string().trim().regex(/^[A-Za-z0-9_-]{1,100}$/)).max(200);
export const roleSlug = () => z.string().trim().regex(/^[a-z0-9_-]{1,100}$/).describe('Role slug');
