import type { Command } from 'commander';
import type { AddOptions, ListOptions } from './sites-run.js';

/** `cms-admin sites …`: site profiles (issue #38, docs/fleets.md). The work is in sites-run.ts, loaded on use. */
export function registerSitesCommands(program: Command): void {
  const sites = program
    .command('sites')
    .description('Site profiles: the WordPress sites other commands reach by name (--site, --sites)')
    .addHelpText(
      'after',
      `
Profiles live in one file per person: $XDG_CONFIG_HOME/cms-admin/sites.json (default
~/.config/cms-admin/sites.json, mode 0600; CMS_SITES_FILE to choose another). Select them
with --site NAME (or CMS_SITE) on one site, --sites a,b | @group | all on several.
See docs/fleets.md.`,
    );

  sites
    .command('add')
    .description('Add a site profile; the application password comes from stdin or CMS_APP_PASSWORD')
    .argument('<name>', 'the profile name (letters, digits, . _ - /)')
    .requiredOption('--url <url>', 'the site address, e.g. https://example.com')
    .requiredOption('--username <user>', 'the account the application password belongs to')
    .option('--group <groups>', 'comma-separated groups it belongs to (selected as @group)')
    .option('--no-check', 'save it without reaching the site first')
    .option('--replace', 'replace a profile of the same name')
    .addHelpText(
      'after',
      `
The password is never a flag (ps and shell history would show it): pipe it in
(\`printf %s "$PW" | cms-admin sites add shop --url … --username …\`), type it when asked, or
set CMS_APP_PASSWORD. The site is reached and logged in to first; one that cannot be is not
saved unless --no-check.

On a multisite network (companion plugin 0.5.0, a super admin's password) every site of the
network becomes a profile: NAME/main for the main site, NAME/<slug> for the others, each on
its own site URL, all in the group @NAME (\`invoke --sites @NAME\`). Sites at another origin
than --url (subdomains, mapped domains) are named, not saved: the password goes to
--url's origin only.`,
    )
    .action(async (name: string, options: AddOptions) => {
      const { addSite } = await import('./sites-run.js');
      process.exitCode = await addSite(name, options);
    });

  sites
    .command('list')
    .description('List the profiles: name, URL, user, WordPress and plugin version, reachable (exit 0; `sites check` exits 1 when one fails)')
    .option('--json', 'print JSON lines instead of a table')
    .option('--offline', 'do not reach the sites (versions and reachable left blank)')
    .option('--concurrency <n>', 'sites reached at once', '8')
    .action(async (options: ListOptions) => {
      const { listSites } = await import('./sites-run.js');
      process.exitCode = await listSites(undefined, options);
    });

  sites
    .command('check')
    .description('Reach and log in to sites (default: all); exit 1 if any cannot be')
    .argument('[names...]', 'profile names, @group or all')
    .option('--json', 'print JSON lines instead of a table')
    .option('--concurrency <n>', 'sites reached at once', '8')
    .action(async (names: string[], options: ListOptions) => {
      const { listSites } = await import('./sites-run.js');
      process.exitCode = await listSites(names.length ? names : ['all'], options);
    });

  sites
    .command('remove')
    .description('Remove a site profile, or every profile of a network added as NAME (the sites are not touched)')
    .argument('<name>', 'the profile name, or the network name')
    .action(async (name: string) => {
      const { removeSite } = await import('./sites-run.js');
      process.exitCode = await removeSite(name);
    });
}
