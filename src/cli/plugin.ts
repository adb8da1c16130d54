import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { buildPluginZip, installPlugin, PLUGIN_SLUG } from '../plugin/companion-plugin.js';

/**
 * `cms-admin plugin install|zip`: puts the companion WordPress plugin on a site. The user tools
 * that WordPress's REST API cannot serve (disable/enable, delete, password reset, sessions, roles) need it,
 * and so do the role tools, prune-terms and recount-terms.
 */
export function registerPluginCommands(program: Command): void {
  const plugin = program
    .command('plugin')
    .description(`Install or package the ${PLUGIN_SLUG} WordPress plugin (disable, delete, resets, sessions, roles, term clean-up)`)
    .addHelpText(
      'after',
      `
The user tools disable-user, enable-user, delete-user, reset-user-password, list-user-sessions
and log-out-user and the role tools (create-role, update-role, delete-role,
find-users-with-capability, update-user-capabilities: 0.6.0) need this plugin, and
list-user-roles needs it to show roles with their capabilities; prune-terms and recount-terms
need it too (0.6.0), and so do the network tools (on a multisite network) and a new account's
set-password link or email (create-user, import-users without a password). With it, bulk
post-term writes take one request per batch and need no site lock. Either copy it into the site's
wp-content directory (\`plugin install\`, on the server) or upload the zip from
\`plugin zip\` under Plugins → Add New → Upload Plugin; then activate it.`,
    );

  plugin
    .command('install')
    .description('Copy the plugin into a WordPress wp-content directory on this machine')
    .requiredOption('--wp-content <dir>', "the site's wp-content directory")
    .option('--mu', 'install as a must-use plugin (always active; adds a loader file in mu-plugins/)')
    .addHelpText(
      'after',
      `
Without --mu the plugin goes to <dir>/plugins/${PLUGIN_SLUG}/ and must be activated under
Plugins (or \`wp plugin activate ${PLUGIN_SLUG}\`). With --mu it goes to
<dir>/mu-plugins/${PLUGIN_SLUG}/ with a loader <dir>/mu-plugins/${PLUGIN_SLUG}-loader.php.
An existing copy is replaced.`,
    )
    .action(async (options: { wpContent: string; mu?: boolean }) => {
      const result = await installPlugin({ wpContent: options.wpContent, mu: options.mu });
      process.stdout.write(`Installed ${PLUGIN_SLUG} in ${result.pluginDir}\n`);
      if (result.loader) process.stdout.write(`Loader: ${result.loader} (must-use plugins are always active)\n`);
      else process.stdout.write('Activate it under Plugins in wp-admin.\n');
    });

  plugin
    .command('status')
    .description("Say whether the site (--site, CMS_SITE or CMS_URL) has the plugin, and which version")
    .action(async () => {
      const { resolveCliSiteConfig } = await import('./site-config.js');
      const { checkSite } = await import('../sites/check.js');
      const site = await resolveCliSiteConfig();
      const check = await checkSite({ ...site, name: site.name ?? site.url, groups: [] });
      if (!check.reachable) {
        process.stderr.write(`${check.error?.code}: ${check.error?.message}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(
        check.plugin ? `${PLUGIN_SLUG} ${check.plugin} is active on ${site.url}\n` : `${PLUGIN_SLUG} is not active on ${site.url}\n`,
      );
    });

  plugin
    .command('zip')
    .description('Write the plugin as a zip for Plugins → Add New → Upload Plugin')
    .option('--out <file>', 'where to write the zip', `${PLUGIN_SLUG}.zip`)
    .addHelpText('after', `\nThe zip holds one top folder, ${PLUGIN_SLUG}/, as WordPress's uploader expects.`)
    .action(async (options: { out: string }) => {
      const out = resolve(options.out);
      await writeFile(out, await buildPluginZip());
      process.stdout.write(`Wrote ${out}\n`);
    });
}
