import type { WordPressClient } from '../client/index.js';
import { ToolError } from './tool-error.js';

/** REST namespace of the companion plugin (plugin/cms-admin-companion). */
export const COMPANION_NAMESPACE = 'cms-admin/v1';

export const INSTALL_HINT =
  'Install the cms-admin-companion plugin: `cms-admin plugin install --wp-content <wp-content dir>` on the server, or upload the zip from `cms-admin plugin zip` under Plugins → Add New → Upload Plugin, then activate it.';

/** Whether the site runs the companion plugin, from the REST index's namespaces (cached by the client). */
export async function hasCompanion(client: WordPressClient): Promise<boolean> {
  return (await client.namespaces()).includes(COMPANION_NAMESPACE);
}

/**
 * WordPress has no disabled state, no password-reset endpoint and no roles endpoint; the
 * tools that need them say so rather than improvising (random passwords, role edits).
 */
export async function requireCompanion(client: WordPressClient, what: string): Promise<void> {
  if (await hasCompanion(client)) return;
  throw new ToolError(
    'companion_plugin_missing',
    `${what} needs the cms-admin-companion WordPress plugin, which this site does not have (no ${COMPANION_NAMESPACE} in its REST API). WordPress itself offers no way to do this over REST.`,
    { hint: INSTALL_HINT },
  );
}
