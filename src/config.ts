import { fileAuditSink } from './audit.js';
import { ConfigError } from './config-error.js';
import { type ChangeJournal, fileJournal, journalForSite } from './undo/journal.js';
import { WordPressClient } from './client/index.js';
import { insecureHttpAllowed, insecureHttpProblem } from './client/insecure-http.js';
import { MIN_ANSWER_BUDGET } from './tools/answers/budget.js';
import { COMPANION_INDEX_FIELD } from './tools/companion.js';
import type { ToolContext } from './call/index.js';

export interface SiteConfig {
  url: string;
  username: string;
  appPassword: string;
  /** True when the credentials come from the local sandbox (no CMS_URL set). */
  sandbox: boolean;
  /** The site profile's name (`--site`, src/sites/), when it came from one. */
  name?: string;
  /** Where the username and password came from, as a login error names them (WordPressClientOptions.credentialsFrom). */
  credentialsFrom?: string;
  /**
   * Send the application password over plain http to another machine (docs/safety.md); default
   * env CMS_ALLOW_INSECURE_HTTP=1 (the CLI's --allow-insecure-http), else such an address is refused.
   */
  allowInsecureHttp?: boolean;
}

export { ConfigError };

/**
 * The site to administer from CMS_URL + CMS_USERNAME + CMS_APP_PASSWORD. The CLI falls back
 * to the local sandbox when CMS_URL is unset (src/cli/site-config.ts); this module does not,
 * so that importing the package never loads the sandbox.
 */
export async function resolveSiteConfig(env: NodeJS.ProcessEnv = process.env): Promise<SiteConfig> {
  const site = siteConfigFromEnv(env);
  if (!site) {
    throw new ConfigError(
      'No site configured: set CMS_URL, CMS_USERNAME and CMS_APP_PASSWORD (or, from the CLI, start the local sandbox with `cms-admin site up --seed`).',
    );
  }
  return site;
}

/** The site from env; undefined when CMS_URL is unset, an error when it is set without credentials. */
export function siteConfigFromEnv(env: NodeJS.ProcessEnv = process.env): SiteConfig | undefined {
  if (!env.CMS_URL) return undefined;
  const missing = ['CMS_USERNAME', 'CMS_APP_PASSWORD'].filter((key) => !env[key]);
  if (missing.length) {
    throw new ConfigError(
      `CMS_URL is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not. Set them to an administrator's username and an application password.`,
    );
  }
  const allowInsecureHttp = insecureHttpAllowed(env);
  checkSiteUrl(env.CMS_URL, 'CMS_URL', allowInsecureHttp);
  return {
    url: env.CMS_URL,
    username: env.CMS_USERNAME as string,
    appPassword: env.CMS_APP_PASSWORD as string,
    sandbox: false,
    credentialsFrom: 'CMS_USERNAME and CMS_APP_PASSWORD',
    ...(allowInsecureHttp ? { allowInsecureHttp } : {}),
  };
}

export interface ContextOptions {
  timeoutMs?: number;
  /** Append a JSON line per write to this file; default env CMS_AUDIT_LOG; none if neither. */
  auditLog?: string;
  /** Where reset links go (see ToolContext.secretsTo); none: tools refuse to make one. */
  secretsTo?: ToolContext['secretsTo'];
  /** Characters of JSON one tool answer may take; default env CMS_ANSWER_BUDGET, else 80,000. */
  answerBudget?: number;
  /**
   * The change journal, so writes can be undone (docs/undo.md): a change store's file (SQLite,
   * 0600; every site in it, each entry naming its own), a journal of the app's own, or 'off';
   * default env CMS_JOURNAL (a file or `off`); none if neither.
   */
  journal?: string | ChangeJournal;
  /** A fleet run's id (`invoke --sites`): each journal entry of this context records it (`undo --run`). */
  runId?: string;
}

export function createContext(site: Omit<SiteConfig, 'sandbox'>, options: ContextOptions = {}): ToolContext {
  // A site address without its scheme ("example.com", "127.0.0.1:8888") is said as such, not as
  // Node's bare "Invalid URL" (or, for "localhost:8888", a URL whose scheme is "localhost:").
  const allowInsecureHttp = site.allowInsecureHttp ?? insecureHttpAllowed();
  checkSiteUrl(site.url, 'site.url', allowInsecureHttp);
  const client = new WordPressClient({
    url: site.url,
    username: site.username,
    appPassword: site.appPassword,
    allowInsecureHttp,
    timeoutMs: options.timeoutMs ?? numberFromEnv('CMS_TIMEOUT_MS', 1),
    indexFields: [COMPANION_INDEX_FIELD],
    ...(site.credentialsFrom ? { credentialsFrom: site.credentialsFrom } : {}),
  });
  const auditLog = options.auditLog ?? process.env.CMS_AUDIT_LOG;
  return {
    client,
    secrets: [...secretForms(site.username, site.appPassword), ...urlSecrets(site.url)],
    audit: auditLog ? fileAuditSink(auditLog) : undefined,
    secretsTo: options.secretsTo,
    answerBudget: options.answerBudget ?? numberFromEnv('CMS_ANSWER_BUDGET', MIN_ANSWER_BUDGET),
    journal: journalFrom(options.journal ?? process.env.CMS_JOURNAL, site.url),
    ...(site.name ? { site: site.name } : {}),
    ...(options.runId ? { runId: options.runId } : {}),
  };
}

/** The journal as this site's context uses it: a change store's view of the site (undo/journal.ts). */
function journalFrom(journal: string | ChangeJournal | undefined, siteUrl: string): ChangeJournal | undefined {
  if (journal === undefined || journal === '' || journal === 'off') return undefined;
  return journalForSite(typeof journal === 'string' ? fileJournal(journal) : journal, siteUrl);
}

/** Application passwords work with or without their spaces; Basic auth carries them base64'd. */
function secretForms(username: string, appPassword: string): string[] {
  const compact = appPassword.replace(/\s+/g, '');
  const basic = Buffer.from(`${username}:${appPassword}`).toString('base64');
  return [...new Set([appPassword, compact, basic])];
}

/** A password in CMS_URL (`http://user:secret@host`) is never sent, and masked wherever it might show. */
function urlSecrets(url: string): string[] {
  try {
    const { password } = new URL(url);
    return password ? [...new Set([password, decodeURIComponent(password)])] : [];
  } catch {
    return [];
  }
}

/**
 * The whole-number settings createContext reads from env, checked at start by commands that make
 * their contexts later (`mcp --http` with sign-in: one per person), so a wrong value stops the
 * command instead of every session.
 */
export function checkContextSettings(env: NodeJS.ProcessEnv = process.env): void {
  numberFromEnv('CMS_TIMEOUT_MS', 1, env);
  numberFromEnv('CMS_ANSWER_BUDGET', MIN_ANSWER_BUDGET, env);
}

/** A whole-number setting from env: unset is undefined; anything but a whole number ≥ min is an error, like its flag. */
export function numberFromEnv(key: string, min: number, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[key]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new ConfigError(`${key} must be a whole number ≥ ${min} (it is "${raw}").`, 'invalid_config');
  }
  return n;
}

/**
 * CMS_URL must be an http(s) address with its scheme, and https unless the host is this machine
 * or insecure http is allowed (client/insecure-http.ts, the one rule; the client refuses too);
 * the message never repeats a password in it.
 */
export function checkSiteUrl(url: string, name = 'CMS_URL', allowInsecureHttp = insecureHttpAllowed()): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname) {
    const insecure = allowInsecureHttp ? undefined : insecureHttpProblem(url, name);
    if (insecure) throw new ConfigError(insecure, 'invalid_config');
    return;
  }
  const shown = url.includes('@') ? 'the value given' : `"${url}"`;
  const eg = name === 'CMS_URL' ? 'CMS_URL=' : '';
  throw new ConfigError(
    `${name} ${shown} is not a site address: give the scheme and host, e.g. ${eg}https://example.com or ${eg}http://127.0.0.1:8888.`,
    'invalid_config',
  );
}
