import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { createUserUndo } from './undo-users.js';
import { userOutput } from '../output-schemas.js';
import { checkPassword, PASSWORD_RULES } from './passwords.js';
import { type RawUser, toUser, USER_QUERY } from './records.js';
import { resolveRole } from './roles.js';
import { text } from '../schema.js';
import { explainGuardError, explainWriteError, refuseTaken } from './write-errors.js';
import { refuseStrongerRole } from './guards.js';
import { defaultRole, none, required, rolePowers, withPowers } from './risk.js';
import { accessWords, checkDelivery, DELIVERY_DESCRIPTION, giveAccess, unknownPassword } from './account-access.js';

export const createUser = defineTool({
  name: 'create-user',
  toolkit: 'users',
  description: 'Create a user. Without a password they get a set-password link. Powerful roles need approval.',
  schema: () => z.strictObject({
    username: text(60).describe('Login name, permanent'),
    email: text(100),
    password: z.string().optional().describe(`Only if the operator gave one; ${PASSWORD_RULES}`),
    delivery: z.enum(['email', 'link']).optional().describe(DELIVERY_DESCRIPTION),
    role: text().optional(),
    name: z.string().optional().describe('Display name'),
    bio: z.string().optional(),
  }),
  // Destructive for MCP clients: a powerful role hands over the site (see risk.ts).
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  undo: createUserUndo,
  async review(context, params) {
    const { client } = context;
    // What WordPress would refuse after the approval is refused before the question (#36).
    if (params.password === undefined) await checkDelivery(context, params.delivery ?? 'email');
    else checkPassword(params.password, params);
    await refuseTaken(client, params);
    const role = params.role === undefined ? await defaultRole(client) : await resolveRole(client, params.role);
    const access = params.password === undefined ? ` and send ${accessWords(params.delivery ?? 'email')}` : '';
    const who = `create the user ${params.username} <${params.email}>`;
    if (role === undefined) return required(`${who} with the site's default role (unknown without the companion plugin)${access}`);
    // A role above the caller's is refused when the call runs: say so now, and ask no one.
    await refuseStrongerRole(client, role, params.role === undefined);
    const powers = (await rolePowers(client))(role);
    const what = `${who} with the role ${withPowers(role, powers)}${access}`;
    return powers.length ? required(what) : none(what);
  },
  async execute(context, params) {
    const { client } = context;
    const delivery = params.delivery ?? 'email';
    // No password given: refuse before the account exists when no one could be let in.
    if (params.password === undefined) await checkDelivery(context, delivery);
    else checkPassword(params.password, params);
    const role = params.role === undefined ? undefined : await resolveRole(client, params.role);
    // Without a role WordPress gives the site's default one, which may be above the caller's too.
    const given = role ?? (await defaultRole(client));
    if (given !== undefined) await refuseStrongerRole(client, given, role === undefined);
    const body = {
      username: params.username,
      email: params.email,
      // WordPress's REST create needs one: without the operator's, one nobody knows (account-access.ts).
      password: params.password ?? unknownPassword(),
      roles: role === undefined ? undefined : [role],
      name: params.name,
      description: params.bio,
    };
    let user: ReturnType<typeof toUser>;
    try {
      user = toUser(await client.post<RawUser>('/wp/v2/users', body, USER_QUERY));
    } catch (err) {
      throw explainGuardError(await explainWriteError(client, err, { username: params.username, email: params.email, role }));
    }
    if (params.password !== undefined) return user;
    return { ...user, access: await giveAccess(context, user, delivery) };
  },
});
