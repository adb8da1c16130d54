import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { userUndo } from './undo-users.js';
import { userOutput } from '../output-schemas.js';
import { ToolError } from '../tool-error.js';
import { checkPassword } from './passwords.js';
import { forUser, getUser, type RawUser, toUser, USER_FIELDS } from './records.js';
import { none, required } from './risk.js';
import { wpId } from '../schema.js';
import { explainGuardError, explainWriteError, invalidEmail, refuseTaken } from './write-errors.js';
import { refuseStrongerAccount } from './guards.js';

const FIELDS = ['email', 'name', 'bio', 'password'] as const;

export const updateUser = defineTool({
  name: 'update-user',
  toolkit: 'users',
  description: 'Change a user’s given fields.',
  schema: () => z.strictObject({
    id: wpId(),
    email: z.string().optional(),
    name: z.string().optional().describe('Display name; "" = username'),
    bio: z.string().optional().describe('"" clears'),
    password: z.string().optional().describe('Rules as create-user'),
  }),
  // Destructive for MCP clients: a new email or password moves the account out of its owner's hands.
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: {
    ...userUndo((params, name, before) => {
      const was = before.users?.[params.id];
      const fields = FIELDS.filter((field) => params[field] !== undefined);
      const email = params.email !== undefined && was ? ` (email was ${was.email})` : '';
      return `updated ${name}: ${fields.join(', ')}${email}`;
    }),
    // A password cannot be read, so it cannot be put back.
    irreversible: (params) => (params.password !== undefined ? 'a new password was set; the old one cannot be restored' : undefined),
  },
  async review({ client }, params) {
    if (!FIELDS.some((field) => params[field] !== undefined)) throw nothingToUpdate();
    const user = await getUser(client, params.id);
    // What the call would be refused for is refused before the question (#36).
    if (params.email !== undefined && params.email.trim() === '') throw invalidEmail(params.email);
    await refuseStrongerAccount(client, params.id, 'edit');
    if (params.password !== undefined) {
      checkPassword(params.password, { username: user.username, email: params.email ?? user.email });
    }
    if (params.email !== undefined && params.email !== user.email) await refuseTaken(client, { email: params.email }, user.id);
    const changes: string[] = [];
    if (params.email !== undefined && params.email !== user.email)
      changes.push(`change ${user.username}'s email from ${user.email} to ${params.email}`);
    if (params.password !== undefined) changes.push(`set a new password for ${user.username} (cannot be undone)`);
    if (changes.length) {
      // The question covers the whole call: a display name changed alongside the email is said too.
      const alongside = [
        ...(params.name !== undefined ? [`display name to "${params.name.slice(0, 80)}"`] : []),
        ...(params.bio !== undefined ? ['bio'] : []),
      ];
      if (alongside.length) changes.push(`also change ${user.username}'s ${alongside.join(' and ')}`);
      return required(changes.join('; '));
    }
    const fields = FIELDS.filter((field) => params[field] !== undefined);
    return none(`update ${user.username}'s ${fields.join(', ')}`);
  },
  async execute({ client }, params) {
    const given = FIELDS.filter((field) => params[field] !== undefined);
    if (given.length === 0) throw nothingToUpdate();
    if (params.email !== undefined && params.email.trim() === '') throw invalidEmail(params.email);
    // A new email or password for a stronger account would hand it to the caller.
    await refuseStrongerAccount(client, params.id, 'edit');
    const path = `/wp/v2/users/${params.id}`;
    const before = await forUser(params.id, () =>
      client.get<RawUser & { description?: string }>(path, { context: 'edit', _fields: `${USER_FIELDS},description` }),
    );
    if (params.password !== undefined) {
      checkPassword(params.password, { username: before.username ?? '', email: params.email ?? before.email ?? '' });
    }
    const body = { email: params.email, name: params.name, description: params.bio, password: params.password };
    let after: RawUser & { description?: string };
    try {
      after = await forUser(params.id, () =>
        client.post(path, body, { context: 'edit', _fields: `${USER_FIELDS},description` }),
      );
    } catch (err) {
      throw explainGuardError(await explainWriteError(client, err, { id: params.id, email: params.email }));
    }
    const changed = given.filter((field) => {
      if (field === 'password') return true;
      const key = field === 'bio' ? 'description' : field;
      return before[key] !== after[key];
    });
    const result: Record<string, unknown> = { ...toUser(after), changed };
    if (params.bio !== undefined) result.bio = after.description ?? '';
    return result;
  },
});

function nothingToUpdate(): ToolError {
  // One code for "nothing to change" across tools (the term tools say it too); this tool said
  // `nothing_to_update` before, kept in details for clients that matched it.
  return new ToolError('no_changes', 'No field to change was given.', {
    hint: 'Give at least one of email, name, bio, password.',
    details: { formerly: 'nothing_to_update' },
  });
}
