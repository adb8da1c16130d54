import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { checkPassword, PASSWORD_RULES } from './passwords.js';
import { type RawUser, toUser, USER_QUERY } from './records.js';
import { resolveRole } from './roles.js';
import { text } from '../schema.js';
import { explainWriteError } from './write-errors.js';

export const createUser = defineTool({
  name: 'create-user',
  toolkit: 'users',
  description: 'Create a user; returns it.',
  schema: z.strictObject({
    username: text(60).describe('Permanent login name'),
    email: text(100).describe('Unique email'),
    password: z.string().describe(PASSWORD_RULES),
    role: text().optional().describe('Role slug'),
    name: z.string().optional().describe('Display name'),
    bio: z.string().optional().describe('Biography'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async execute({ client }, params) {
    checkPassword(params.password, params);
    const role = params.role === undefined ? undefined : await resolveRole(client, params.role);
    const body = {
      username: params.username,
      email: params.email,
      password: params.password,
      roles: role === undefined ? undefined : [role],
      name: params.name,
      description: params.bio,
    };
    try {
      return toUser(await client.post<RawUser>('/wp/v2/users', body, USER_QUERY));
    } catch (err) {
      throw await explainWriteError(client, err, { username: params.username, email: params.email, role });
    }
  },
});
