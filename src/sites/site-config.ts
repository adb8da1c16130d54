import { insecureHttpAllowed } from '../client/insecure-http.js';
import { ConfigError, checkSiteUrl, type SiteConfig, siteConfigFromEnv } from '../config.js';
import { findProfile, profileCredentialsFrom, profilesPath, readProfiles } from './store.js';

/**
 * The site for CLI commands and the LangGraph graph (`cms-admin-toolkit/langgraph`), from one
 * place: the profile `--site NAME` / CMS_SITE names (store.ts), else CMS_URL + CMS_USERNAME +
 * CMS_APP_PASSWORD (a one-site profile), otherwise the local sandbox's credentials (`cms-admin
 * site up`, loaded only then). The package's main entry never imports this module.
 */
export async function resolveCliSiteConfig(env: NodeJS.ProcessEnv = process.env): Promise<SiteConfig> {
  const fromProfile = profileSite(env);
  if (fromProfile) return fromProfile;
  const fromEnv = siteConfigFromEnv(env);
  if (fromEnv) return fromEnv;
  // Loaded only without a profile or CMS_URL: a configured site never pays for the sandbox's modules.
  const { readCredentials } = await import('../sandbox/index.js');
  const creds = await readCredentials({});
  if (!creds) {
    throw new ConfigError(
      'No site configured: set CMS_URL, CMS_USERNAME and CMS_APP_PASSWORD, add a profile (`cms-admin sites add`) and pass --site, or start the local sandbox with `cms-admin site up --seed`.',
    );
  }
  return {
    url: creds.url,
    username: creds.username,
    appPassword: creds.appPassword,
    sandbox: true,
    credentialsFrom: "the local sandbox's credentials (`cms-admin site env`; `cms-admin site up` makes new ones)",
  };
}

/** The profile CMS_SITE names (the CLI's --site sets it); undefined when unset. */
export function profileSite(env: NodeJS.ProcessEnv = process.env): SiteConfig | undefined {
  const name = env.CMS_SITE?.trim();
  if (!name) return undefined;
  const file = profilesPath(env);
  const profile = findProfile(readProfiles(file), name);
  if (!profile) {
    throw new ConfigError(
      `No site profile "${name}" (--site / CMS_SITE) in ${file}: \`cms-admin sites list\` shows them, \`cms-admin sites add\` adds one.`,
      'invalid_config',
    );
  }
  const allowInsecureHttp = insecureHttpAllowed(env);
  checkSiteUrl(profile.url, `The profile ${name}'s url`, allowInsecureHttp);
  return {
    name,
    url: profile.url,
    username: profile.username,
    appPassword: profile.appPassword,
    sandbox: false,
    credentialsFrom: profileCredentialsFrom(name, profile.network),
    ...(allowInsecureHttp ? { allowInsecureHttp } : {}),
  };
}
