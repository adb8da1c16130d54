import { ConfigError, type SiteConfig } from '../config.js';
import { resolveCliSiteConfig } from './site-config.js';
import { siteStatus, siteUp } from '../sandbox/index.js';

/**
 * The site for interactive commands: CMS_URL if set; otherwise the local sandbox, started
 * (and seeded on its very first start) when it is not running.
 */
export async function ensureSite(log: (line: string) => void): Promise<SiteConfig> {
  if (process.env.CMS_SITE || process.env.CMS_URL) return resolveCliSiteConfig();
  const status = await siteStatus({});
  if (!status.running) {
    log(
      status.installed
        ? 'Starting the local sandbox site…'
        : 'First start: installing and seeding the local sandbox site…',
    );
    await siteUp({ seed: !status.seeded });
  }
  try {
    return await resolveCliSiteConfig();
  } catch (err) {
    if (err instanceof ConfigError && err.code === 'not_configured') throw new Error(`The sandbox started but has no credentials: ${err.message}`);
    throw err;
  }
}
