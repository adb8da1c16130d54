import { randomBytes } from 'node:crypto';
import { COMPANION_NAMESPACE, requireCompanion } from '../companion.js';
import type { ToolContext } from '../define-tool.js';
import { ToolError } from '../tool-error.js';
import { maskEmail } from './records.js';

/**
 * How a new account without a password given gets in (#50): WordPress's REST create needs a
 * password, so the toolkit sets one no one knows (never shown, logged or journalled), then the
 * person gets WordPress's new-user email (`email`, companion plugin 0.6.0) or a set-password
 * link handed to the operator (`link`), by reset-user-password's rules. A model never invents
 * a password.
 */
export type Delivery = 'email' | 'link';

export const DELIVERY_DESCRIPTION = 'No password: how they get in; link: to the operator';

/** 48 random bytes, base64url: unguessable, never leaves this process except to WordPress. */
export function unknownPassword(): string {
  return randomBytes(48).toString('base64url');
}

/** Refuses, before any account exists, a delivery that cannot reach anyone. */
export async function checkDelivery({ client, secretsTo }: ToolContext, delivery: Delivery): Promise<void> {
  if (delivery === 'link') {
    if (!secretsTo) throw noOneToReceive();
    await requireCompanion(client, 'Giving a new account a set-password link', 'users/password-reset');
    return;
  }
  await requireCompanion(client, 'Emailing a new account its set-password link', 'users/welcome');
}

export interface AccessGiven {
  delivery: Delivery;
  sent_to?: string;
  link_given_to?: string;
  reset_link?: string;
  sensitive?: true;
  expires_in_hours?: number;
  /** The account exists but the email or link failed: what to do next. */
  error?: string;
}

interface AccessResponse {
  sent_to?: string;
  reset_link?: string;
  expires_in_seconds?: number;
}

/** The request that gives one account its way in (for `/batch/v1` too). */
export function accessRequest(id: number, delivery: Delivery): { path: string; body: Record<string, unknown> } {
  return delivery === 'email'
    ? { path: `/${COMPANION_NAMESPACE}/users/${id}/welcome`, body: {} }
    : { path: `/${COMPANION_NAMESPACE}/users/${id}/password-reset`, body: { delivery: 'link' } };
}

/** What the answer says of one account's access, from the route's response; a link goes to the operator. */
export async function accessGiven(
  { secretsTo }: ToolContext,
  user: { id: number; username: string },
  delivery: Delivery,
  response: AccessResponse,
): Promise<AccessGiven> {
  const expires_in_hours = Math.round(((response.expires_in_seconds ?? 86400) / 3600) * 10) / 10;
  if (delivery === 'email') return { delivery, sent_to: maskEmail(response.sent_to ?? ''), expires_in_hours };
  if (secretsTo === 'result') return { delivery, sensitive: true, reset_link: response.reset_link, expires_in_hours };
  if (!secretsTo) throw noOneToReceive();
  const where = await secretsTo({ kind: 'reset_link', user, value: response.reset_link ?? '', expires_in_hours });
  return { delivery, link_given_to: where, expires_in_hours };
}

/** Gives one new account its way in; a failure is said in the answer (the account exists). */
export async function giveAccess(
  context: ToolContext,
  user: { id: number; username: string },
  delivery: Delivery,
): Promise<AccessGiven> {
  const { path, body } = accessRequest(user.id, delivery);
  try {
    return await accessGiven(context, user, delivery, await context.client.post<AccessResponse>(path, body));
  } catch (err) {
    return accessFailed(delivery, err);
  }
}

export function accessFailed(delivery: Delivery, err: unknown): AccessGiven {
  const why = err instanceof Error ? err.message : String(err);
  return { delivery, error: `${why} The account exists; send it a link with reset-user-password.` };
}

/** How the question says it. */
export function accessWords(delivery: Delivery): string {
  return delivery === 'email'
    ? 'WordPress’s new-user email with a link to set a password'
    : 'a set-password link shown to you, not to the model';
}

export function noOneToReceive(): ToolError {
  return new ToolError(
    'no_one_to_receive_link',
    'A set-password link opens the account, so it goes only to a person, and no one here can receive it. Nothing was changed.',
    {
      hint: 'Use delivery "email", or run the chat or tool shell (it shows the link on the terminal), `cms-admin invoke --show-reset-link`, or `cms-admin mcp --reveal-reset-links`.',
    },
  );
}
