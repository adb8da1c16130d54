import { WordPressClient } from '../client/index.js';
import { redactSecrets } from '../redact.js';
import { COMPANION_INDEX_FIELD, companionVersion } from '../tools/companion.js';
import type { SiteProfile } from './store.js';

/** What `sites check` and `sites list --check` say of one site. */
export interface SiteCheck {
  name: string;
  url: string;
  reachable: boolean;
  /** The account the password logs in as (checked: /users/me). */
  user?: string;
  /** From the companion plugin (0.4.1+, administrators only); absent without it. */
  wordpress?: string;
  plugin?: string;
  /** A multisite network, as the companion plugin (0.5.0) reports it in the REST index. */
  network?: true;
  /** Why not: the site's error by name, its secrets masked. */
  error?: { code: string; message: string };
}

/**
 * Logs in to the site (the same request every command starts with) and reads the REST index:
 * the password is checked on its own origin only (WordPressClient's origin rules, #26).
 */
export async function checkSite(profile: SiteProfile, timeoutMs = 15_000): Promise<SiteCheck> {
  const base = { name: profile.name, url: profile.url };
  try {
    // In the try: a profile at plain http on another machine is this site's `insecure_http`.
    const client = new WordPressClient({ ...profile, timeoutMs, indexFields: [COMPANION_INDEX_FIELD] });
    const me = await client.connect();
    const [plugin, index] = await Promise.all([companionVersion(client), client.index()]);
    const field = index[COMPANION_INDEX_FIELD] as { wordpress?: unknown; network?: unknown } | undefined;
    const reported = field?.wordpress;
    return {
      ...base,
      reachable: true,
      user: me.username,
      ...(typeof reported === 'string' ? { wordpress: reported } : {}),
      ...(plugin ? { plugin } : {}),
      ...(field?.network === true ? { network: true as const } : {}),
    };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    const message = redactSecrets(String(e.message ?? err).split('\n')[0] ?? '', secretsOf(profile));
    return { ...base, reachable: false, error: { code: typeof e.code === 'string' ? e.code : 'unreachable', message } };
  }
}

/** The forms a profile's password can take in text (as createContext masks them). */
export function secretsOf(profile: Pick<SiteProfile, 'username' | 'appPassword'>): string[] {
  const compact = profile.appPassword.replace(/\s+/g, '');
  const basic = Buffer.from(`${profile.username}:${profile.appPassword}`).toString('base64');
  return [...new Set([profile.appPassword, compact, basic])].filter(Boolean);
}
