import type { WordPressError } from '../client/index.js';
import { ToolError } from './tool-error.js';

/**
 * Refusals said twice: first by a tool's review (a dry run, an approval: before anyone is asked),
 * then by the companion plugin (`cms_admin_<code>`, or pluginCodeOf's name) when a call reaches it without a review
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
  cannot_disable_self: 'Disable it from another administrator account, if at all.',
  cannot_log_out_self: 'Log out in wp-admin (Users → Profile → Log Out Everywhere Else), or from another administrator account.',
  own_app_password:
    'Revoke it from another account or in wp-admin (Users → Profile); to revoke the others, give their uuids (list-app-passwords marks the toolkit’s own with used_by_this_toolkit).',
  invalid_reassign: 'Give reassign_to: the id of another user who can write posts (list-users).',
  user_disabled: 'Enable the account first (enable-user), then start the reset.',
} as const satisfies Record<string, string>;

export type RefusalCode = keyof typeof REFUSALS;

/**
 * Refusals the plugin says under another name than `cms_admin_<code>` (its `cms_admin_user_disabled`
 * is the sign-in's refusal of a disabled account, not a reset's).
 */
const PLUGIN_NAMES: Partial<Record<RefusalCode, string>> = { user_disabled: 'cms_admin_user_is_disabled' };

/** The companion plugin's code for a refusal of the table. */
export function pluginCodeOf(code: RefusalCode): string {
  return PLUGIN_NAMES[code] ?? `cms_admin_${code}`;
}

const BY_PLUGIN_CODE = new Map(Object.keys(REFUSALS).map((code) => [pluginCodeOf(code as RefusalCode), code as RefusalCode]));

/** The review's refusal: its code, the message, the one hint. */
export function refusal(code: RefusalCode, message: string): ToolError {
  return new ToolError(code, message, { hint: REFUSALS[code] });
}

/** The plugin's code for a refusal of the table (pluginCodeOf) as that refusal (else undefined). */
export function pluginRefusal(err: WordPressError): ToolError | undefined {
  const ours = BY_PLUGIN_CODE.get(err.code);
  if (!ours) return undefined;
  const message = /Nothing was changed\.$/.test(err.message) ? err.message : `${err.message} Nothing was changed.`;
  return refusal(ours, message);
}
