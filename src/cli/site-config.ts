import { ConfigError, type SiteConfig, siteConfigFromEnv } from '../config.js';

/**
 * The site for CLI commands: CMS_URL + CMS_USERNAME + CMS_APP_PASSWORD when CMS_URL is set,
 * otherwise the local sandbox's credentials (`cms-admin site up`). Lives on the CLI side so
 * the package's main entry never loads the sandbox.
 */
export async function resolveCliSiteConfig(env: NodeJS.ProcessEnv = process.env): Promise<SiteConfig> {
  const fromEnv = siteConfigFromEnv(env);
  if (fromEnv) return fromEnv;
  // Loaded only without CMS_URL: a configured site never pays for the sandbox's modules.
  const { readCredentials } = await import('../sandbox/index.js');
  const creds = await readCredentials({});
  if (!creds) {
    throw new ConfigError(
      'No site configured: set CMS_URL, CMS_USERNAME and CMS_APP_PASSWORD, or start the local sandbox with `cms-admin site up --seed`.',
    );
  }
  return { url: creds.url, username: creds.username, appPassword: creds.appPassword, sandbox: true };
}
