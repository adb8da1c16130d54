import type { AnyToolDefinition } from './define-tool.js';
import { assignCategoriesToPosts } from './taxonomy/assign-categories-to-posts.js';
import { assignTagsToPosts } from './taxonomy/assign-tags-to-posts.js';
import { createCategory } from './taxonomy/create-category.js';
import { createTag } from './taxonomy/create-tag.js';
import { deleteCategory } from './taxonomy/delete-category.js';
import { deleteTag } from './taxonomy/delete-tag.js';
import { getCmsCategories } from './taxonomy/get-cms-categories.js';
import { getCmsTags } from './taxonomy/get-cms-tags.js';
import { listTaxonomies } from './taxonomy/list-taxonomies.js';
import { listTerms } from './taxonomy/list-terms.js';
import { createTerm } from './taxonomy/create-term.js';
import { updateTerm } from './taxonomy/update-term.js';
import { deleteTerm } from './taxonomy/delete-term.js';
import { findPosts } from './taxonomy/find-posts.js';
import { assignTermsToPosts } from './taxonomy/assign-terms-to-posts.js';
import { removeTermsFromPosts } from './taxonomy/remove-terms-from-posts.js';
import { mergeTerms } from './taxonomy/merge-terms.js';
import { mergeCategories } from './taxonomy/merge-categories.js';
import { updateCategory } from './taxonomy/update-category.js';
import { updateTag } from './taxonomy/update-tag.js';
import { createUser } from './users/create-user.js';
import { deleteUser } from './users/delete-user.js';
import { disableUser } from './users/disable-user.js';
import { enableUser } from './users/enable-user.js';
import { listAppPasswords } from './users/list-app-passwords.js';
import { listUserRoles } from './users/list-user-roles.js';
import { listUserSessions } from './users/list-user-sessions.js';
import { listUsers } from './users/list-users.js';
import { logOutUser } from './users/log-out-user.js';
import { resetUserPassword } from './users/reset-user-password.js';
import { revokeAppPasswords } from './users/revoke-app-passwords.js';
import { setUserRole } from './users/set-user-role.js';
import { updateUser } from './users/update-user.js';
import { addUserToSite } from './users/add-user-to-site.js';
import { removeUserFromSite } from './users/remove-user-from-site.js';
import { grantSuperAdmin } from './users/grant-super-admin.js';
import { revokeSuperAdmin } from './users/revoke-super-admin.js';
import { listUsersOnNetwork } from './users/list-network-users.js';
import { deleteUserOnNetwork } from './users/delete-network-user.js';
import { listChanges } from './changes/list-changes.js';
import { undoChangeTool } from './changes/undo-change.js';

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
  // users (list-users and delete-user have network forms: select.ts picks them on a network)
  { ...listUsers, onNetwork: listUsersOnNetwork } as AnyToolDefinition,
  createUser,
  updateUser,
  disableUser,
  enableUser,
  resetUserPassword,
  setUserRole,
  listUserRoles,
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
  // changes (both toolkits)
  listChanges,
  undoChangeTool,
];

export function findTool(name: string): AnyToolDefinition | undefined {
  return tools.find((tool) => tool.name === name);
}

export { isNetwork } from './users/network.js';

export {
  type CallReview,
  type HandedSecret,
  type SecretHandOver,
  defineTool,
  DRY_RUN,
  isDryRun,
  type AnyToolDefinition,
  type ToolAnnotations,
  type ToolContext,
  type ToolDefinition,
  type ToolkitName,
} from './define-tool.js';
export { type ToolOutcome, runTool } from './run-tool.js';
export {
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  approvalRequest,
  approveAll,
  type CallDecision,
  decideCall,
  type FailedReview,
  reviewCall,
} from './approval.js';
export { type ToolFilter, selectTools } from './select.js';
export { ToolError, type ToolErrorPayload } from './tool-error.js';
