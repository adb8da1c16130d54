import type { WordPressError } from '../client/index.js';
import { ToolError } from './tool-error.js';

/**
 * Refusals said twice: first by a tool's review (a dry run, an approval: before anyone is asked),
 * then by the companion plugin as `cms_admin_<code>` when a call reaches it without a review
 * (`invoke` runs no approval). One code and one hint per refusal on every path (#52.10): the
 * reviews take their hint from here, and toErrorPayload turns the plugin's code into ours.
 */
export const REFUSALS = {
  last_super_admin: 'Grant super admin to another account first (grant-super-admin).',
  delete_super_admin: 'Revoke super admin first (revoke-super-admin).',
  content_needs_heir: 'Give reassign_to: a user of each site with posts, who gets them.',
  not_member: 'list-users with network: true shows the sites each account belongs to.',
  already_member: "Change the role with set-user-role on that site's own address.",
  cannot_delete_self: 'Delete it from another administrator account, if at all.',
} as const satisfies Record<string, string>;

export type RefusalCode = keyof typeof REFUSALS;

/** The review's refusal: its code, the message, the one hint. */
export function refusal(code: RefusalCode, message: string): ToolError {
  return new ToolError(code, message, { hint: REFUSALS[code] });
}

/** The plugin's `cms_admin_<code>` for a refusal of the table as that refusal (else undefined). */
export function pluginRefusal(err: WordPressError): ToolError | undefined {
  const ours = /^cms_admin_(\w+)$/.exec(err.code)?.[1];
  if (!ours || !Object.hasOwn(REFUSALS, ours)) return undefined;
  const message = /Nothing was changed\.$/.test(err.message) ? err.message : `${err.message} Nothing was changed.`;
  return refusal(ours as RefusalCode, message);
}
