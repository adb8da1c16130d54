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
  account_stronger_than_caller: 'Only an account with at least the same capabilities (an administrator, for an administrator) may do this.',
  role_stronger_than_caller: 'Have an administrator do this, or choose a role listed by list-user-roles with fewer capabilities.',
  capability_beyond_caller: 'Leave these capabilities out, or have an administrator make this change.',
  cannot_change_own_capabilities: 'Have another administrator make this change.',
  last_administrator: 'Make another account an administrator (manage_options) first.',
  role_has_users: 'Pass move_users_to: the role its accounts get instead.',
  default_role_protected: 'Pass force: true to delete editor, author, contributor or subscriber; administrator is never deleted.',
  role_exists: 'Use update-role to change it, or choose another slug.',
  invalid_capability: 'Capabilities are names such as edit_posts or manage_categories; a role’s name is not one.',
  role_slug_is_capability:
    'Choose a slug that is no capability’s name (e.g. shop_manager rather than manage_options); list-user-roles and find-users-with-capability show the names in use.',
} as const satisfies Record<string, string>;

export type RefusalCode = keyof typeof REFUSALS;

/**
 * Refusals the plugin says under another name than `cms_admin_<code>` (its `cms_admin_user_disabled`
 * is the sign-in's refusal of a disabled account, not a reset's).
 */
const PLUGIN_NAMES: Partial<Record<RefusalCode, string>> = {
  user_disabled: 'cms_admin_user_is_disabled',
  default_role_protected: 'cms_admin_default_role',
};

/** The companion plugin's code for a refusal of the table. */
export function pluginCodeOf(code: RefusalCode): string {
  return PLUGIN_NAMES[code] ?? `cms_admin_${code}`;
}

const BY_PLUGIN_CODE = new Map(Object.keys(REFUSALS).map((code) => [pluginCodeOf(code as RefusalCode), code as RefusalCode]));

/** The review's refusal: its code, the message, the one hint (and what it names, e.g. the capabilities). */
export function refusal(code: RefusalCode, message: string, details?: unknown): ToolError {
  return new ToolError(code, message, details === undefined ? { hint: REFUSALS[code] } : { hint: REFUSALS[code], details });
}

/** The plugin's code for a refusal of the table (pluginCodeOf) as that refusal (else undefined). */
export function pluginRefusal(err: WordPressError): ToolError | undefined {
  const ours = BY_PLUGIN_CODE.get(err.code);
  if (!ours) return undefined;
  const message = /changed\.$/.test(err.message.trim()) ? err.message.trim() : `${err.message.trim()} Nothing was changed.`;
  const data = (err.data ?? {}) as { capabilities?: string[]; users_count?: number };
  const details = {
    ...(data.capabilities ? { capabilities: data.capabilities } : {}),
    ...(data.users_count ? { users_count: data.users_count } : {}),
  };
  return refusal(ours, message, Object.keys(details).length ? details : undefined);
}
