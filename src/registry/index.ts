import type { AnyToolDefinition } from '../tools/define-tool.js';
import { assignCategoriesToPosts } from '../tools/taxonomy/assign-categories-to-posts.js';
import { assignTagsToPosts } from '../tools/taxonomy/assign-tags-to-posts.js';
import { createCategory } from '../tools/taxonomy/create-category.js';
import { createTag } from '../tools/taxonomy/create-tag.js';
import { deleteCategory } from '../tools/taxonomy/delete-category.js';
import { deleteTag } from '../tools/taxonomy/delete-tag.js';
import { getCmsCategories } from '../tools/taxonomy/get-cms-categories.js';
import { getCmsTags } from '../tools/taxonomy/get-cms-tags.js';
import { listTaxonomies } from '../tools/taxonomy/list-taxonomies.js';
import { listTerms } from '../tools/taxonomy/list-terms.js';
import { createTerm } from '../tools/taxonomy/create-term.js';
import { updateTerm } from '../tools/taxonomy/update-term.js';
import { deleteTerm } from '../tools/taxonomy/delete-term.js';
import { findPosts } from '../tools/taxonomy/find-posts.js';
import { assignTermsToPosts } from '../tools/taxonomy/assign-terms-to-posts.js';
import { removeTermsFromPosts } from '../tools/taxonomy/remove-terms-from-posts.js';
import { mergeTerms } from '../tools/taxonomy/merge-terms.js';
import { mergeCategories } from '../tools/taxonomy/merge-categories.js';
import { pruneTerms } from '../tools/taxonomy/prune-terms.js';
import { findDuplicateTerms } from '../tools/taxonomy/find-duplicate-terms.js';
import { recountTerms } from '../tools/taxonomy/recount-terms.js';
import { setTermsParent } from '../tools/taxonomy/set-terms-parent.js';
import { migrateTerms } from '../tools/taxonomy/migrate-terms.js';
import { updateCategory } from '../tools/taxonomy/update-category.js';
import { updateTag } from '../tools/taxonomy/update-tag.js';
import { createUser } from '../tools/users/create-user.js';
import { deleteUser } from '../tools/users/delete-user.js';
import { disableUser } from '../tools/users/disable-user.js';
import { enableUser } from '../tools/users/enable-user.js';
import { listAppPasswords } from '../tools/users/list-app-passwords.js';
import { listUserRoles } from '../tools/users/list-user-roles.js';
import { createRole } from '../tools/users/create-role.js';
import { updateRole } from '../tools/users/update-role.js';
import { deleteRole } from '../tools/users/delete-role.js';
import { findUsersWithCapability } from '../tools/users/find-users-with-capability.js';
import { updateUserCapabilities } from '../tools/users/update-user-capabilities.js';
import { listUserSessions } from '../tools/users/list-user-sessions.js';
import { listUsers } from '../tools/users/list-users.js';
import { logOutUser } from '../tools/users/log-out-user.js';
import { resetUserPassword } from '../tools/users/reset-user-password.js';
import { revokeAppPasswords } from '../tools/users/revoke-app-passwords.js';
import { setUserRole } from '../tools/users/set-user-role.js';
import { setUsersRole } from '../tools/users/set-users-role.js';
import { importUsers } from '../tools/users/import-users.js';
import { updateUser } from '../tools/users/update-user.js';
import { addUserToSite } from '../tools/users/add-user-to-site.js';
import { removeUserFromSite } from '../tools/users/remove-user-from-site.js';
import { grantSuperAdmin } from '../tools/users/grant-super-admin.js';
import { revokeSuperAdmin } from '../tools/users/revoke-super-admin.js';
import { listUsersOnNetwork } from '../tools/users/list-network-users.js';
import { deleteUserOnNetwork } from '../tools/users/delete-network-user.js';
import { listSites } from '../tools/sites/list-sites.js';
import { findAbilities } from '../tools/abilities/find-abilities.js';
import { describeAbility } from '../tools/abilities/describe-ability.js';
import { runAbility } from '../tools/abilities/run-ability.js';
import { listChanges } from '../changes/list-changes.js';
import { undoChangeTool } from '../changes/undo-change.js';

/** The registry: the only list of tools. Adapters, the CLI and MCP loop over it. */
export const tools: readonly AnyToolDefinition[] = [
  // taxonomy
  getCmsCategories,
  getCmsTags,
  createCategory,
  createTag,
  updateCategory,
  updateTag,
  deleteCategory,
  deleteTag,
  mergeCategories,
  assignCategoriesToPosts,
  assignTagsToPosts,
  listTaxonomies,
  listTerms,
  createTerm,
  updateTerm,
  deleteTerm,
  findPosts,
  assignTermsToPosts,
  removeTermsFromPosts,
  mergeTerms,
  // taxonomy clean-up (#51)
  pruneTerms,
  findDuplicateTerms,
  recountTerms,
  setTermsParent,
  migrateTerms,
  // users (list-users and delete-user have network forms: select.ts picks them on a network)
  { ...listUsers, onNetwork: listUsersOnNetwork } as AnyToolDefinition,
  createUser,
  updateUser,
  disableUser,
  enableUser,
  resetUserPassword,
  setUserRole,
  // bulk accounts (#50)
  setUsersRole,
  importUsers,
  listUserRoles,
  // roles and capabilities (companion plugin 0.6.0, docs/users.md)
  createRole,
  updateRole,
  deleteRole,
  findUsersWithCapability,
  updateUserCapabilities,
  { ...deleteUser, onNetwork: deleteUserOnNetwork } as AnyToolDefinition,
  listAppPasswords,
  revokeAppPasswords,
  listUserSessions,
  logOutUser,
  // multisite networks only (docs/multisite.md)
  addUserToSite,
  removeUserFromSite,
  grantSuperAdmin,
  revokeSuperAdmin,
  // sessions on several sites only (docs/fleets.md)
  listSites,
  // changes (both toolkits)
  listChanges,
  undoChangeTool,
  // the site's own WordPress abilities (6.9+, docs/abilities.md)
  findAbilities,
  describeAbility,
  runAbility,
];

export function findTool(name: string): AnyToolDefinition | undefined {
  return tools.find((tool) => tool.name === name);
}

export { isNetwork, networkToolsFor } from '../tools/users/network.js';
// The abilities a session makes tools of their own (the `abilities` option), read from its sites.
export { abilityTools } from '../tools/abilities/ability-doors.js';
export { ABILITIES_ABSENT, hasAbilitiesApi } from '../tools/abilities/abilities-api.js';

export {
  type CallReview,
  type HandedSecret,
  type SecretHandOver,
  defineTool,
  DRY_RUN,
  isDryRun,
  isNetworkWide,
  type AnyToolDefinition,
  type FleetSiteInfo,
  type ToolAnnotations,
  type ToolContext,
  type ToolDefinition,
  type ToolkitName,
} from '../tools/define-tool.js';
export { type ToolFilter, selectTools } from './select.js';
export { notEnabled, whyNotEnabled } from './not-enabled.js';
export {
  DEFAULT_TOOLSETS,
  resolveToolsets,
  TOOLSET_NAMES,
  TOOLSET_OF,
  TOOLSETS,
  toolsetOf,
  type ToolsetName,
  toolsOfToolset,
} from './toolsets.js';
export {
  ENABLE_TOOLSET,
  type EnableOutcome,
  type EnableToolsetSpec,
  enableToolset,
  enableToolsetSpec,
  ToolsetSession,
} from './toolset-session.js';
export { ToolError, type ToolErrorPayload } from '../tools/tool-error.js';
