import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { mapLimit } from '../../../src/client/index.js';
import { REDACTED } from '../../../src/redact.js';
import { packageRoot, readMailLog, resolveInstance } from '../../../src/sandbox/index.js';
import { invoke } from '../../../src/call/envelope.js';
import { postLoginForm } from '../../../src/evals/account-state.js';
import type { ToolContext, ToolOutcome } from '../../../src/call/index.js';
import { recordOutput } from '../../helpers/output-log.js';
import { call, testSite, unique, wp } from '../../helpers/site.js';
import { phpCacheArgs } from '../../helpers/php-cache.js';

/**
 * Fixtures and checks for the user tests. Users, application passwords and roles are made
 * straight through `wp()` (or PHP for roles), never through the tools under test.
 */

// ---- Every outcome of a test file, scanned for secrets at the end --------------------------

const outcomes: Array<{ tool: string; outcome: ToolOutcome; allowed: string[] }> = [];
const secrets = new Set<string>();

/** Remembers a value that must never appear in any tool result or error. */
export function secret<T extends string>(value: T): T {
  secrets.add(value);
  return value;
}

/** Calls a tool and records its outcome; `allowed` secrets may appear in this one (a requested link). */
export async function run(
  tool: string,
  params?: Record<string, unknown>,
  allowed: string[] = [],
): Promise<ToolOutcome> {
  const outcome = await call(tool, params);
  outcomes.push({ tool, outcome, allowed });
  return outcome;
}

export async function runOk<T = any>(
  tool: string,
  params?: Record<string, unknown>,
  allowed: string[] = [],
): Promise<T> {
  const outcome = await run(tool, params, allowed);
  if (!outcome.ok) throw new Error(`${tool} failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result as T;
}

/** `run` through another context (e.g. one whose reset links go to the result or a person). */
export async function runIn(context: ToolContext, tool: string, params: Record<string, unknown>): Promise<ToolOutcome> {
  const outcome = await invoke({ tool, params }, context);
  recordOutput(JSON.stringify(outcome));
  outcomes.push({ tool, outcome, allowed: [] });
  return outcome;
}

/** The error of a call expected to fail. */
export async function runError(tool: string, params?: Record<string, unknown>) {
  const outcome = await run(tool, params);
  if (outcome.ok) throw new Error(`${tool} succeeded but should have failed: ${JSON.stringify(outcome.result)}`);
  return outcome.error;
}

/** Lets `values` appear in one recorded outcome (e.g. the link a `delivery: "link"` call asked for), secret everywhere else. */
export function allowIn(outcome: ToolOutcome, values: string[]): void {
  const entry = outcomes.find((o) => o.outcome === outcome);
  if (!entry) throw new Error('allowIn: outcome was not recorded by run()');
  for (const value of values) {
    secret(value);
    entry.allowed.push(value);
  }
}

/**
 * No password, application password or reset link in any outcome. `[REDACTED]` must not show
 * either: it would mean a tool tried to output a secret and only the runner's safety net caught it.
 */
export function expectNoSecretsLeaked(): void {
  expect(outcomes.length).toBeGreaterThan(0);
  for (const { tool, outcome, allowed } of outcomes) {
    const text = JSON.stringify(outcome);
    for (const value of secrets) {
      if (allowed.includes(value)) continue;
      expect(text.includes(value), `${tool} outcome leaks a secret: ${text}`).toBe(false);
    }
    expect(text.includes(REDACTED), `${tool} outcome needed redaction: ${text}`).toBe(false);
  }
}

// ---- Users ---------------------------------------------------------------------------------

export interface Fixture {
  id: number;
  username: string;
  email: string;
  password: string;
}

/** A strong random password (≥12 chars, many different ones). */
export function newPassword(): string {
  return secret(`Pw-${randomBytes(15).toString('base64url')}`);
}

export function newIdentity(prefix = 'user'): { username: string; email: string } {
  const username = unique(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
  return { username, email: `${username}@example.org` };
}

export async function makeUser(options: { prefix?: string; roles?: string[]; name?: string } = {}): Promise<Fixture> {
  const { username, email } = newIdentity(options.prefix);
  const password = newPassword();
  const user = await wp().post<{ id: number }>('/wp/v2/users', {
    username,
    email,
    password,
    roles: options.roles ?? ['subscriber'],
    ...(options.name ? { name: options.name } : {}),
  });
  return { id: user.id, username, email, password };
}

export async function makeUsers(count: number, prefix = 'bulk'): Promise<number[]> {
  // The users controller has no batch support in 6.1 (no `allow_batch`): one request each.
  return mapLimit(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const { username, email } = newIdentity(`${prefix}${i}`);
      const user = await wp().post<{ id: number }>('/wp/v2/users', { username, email, password: newPassword() });
      return user.id;
    },
  );
}

/** Reads a user back with everything an administrator sees. */
export function readUser(id: number) {
  return wp().get<Record<string, any>>(`/wp/v2/users/${id}`, { context: 'edit' });
}

export async function makeAppPassword(userId: number): Promise<string> {
  const created = await wp().post<{ password: string }>(`/wp/v2/users/${userId}/application-passwords`, {
    name: unique('test app'),
  });
  return secret(created.password);
}

// ---- Logging in the way people and programs do -----------------------------------------------

const siteUrl = () => testSite().url;

/**
 * A wp-login.php form login. WordPress refuses it without its test cookie; success is a 302
 * to wp-admin that sets the logged-in cookie, failure re-shows the form (200).
 */
export async function formLogin(
  username: string,
  password: string,
): Promise<{ ok: boolean; status: number; body: string }> {
  const response = await postLoginForm(siteUrl(), username, password);
  const cookies = response.headers.getSetCookie().join('\n');
  const ok =
    response.status === 302 &&
    /wordpress_logged_in_/.test(cookies) &&
    /wp-admin/.test(response.headers.get('location') ?? '');
  return { ok, status: response.status, body: await response.text() };
}

/** Status of a REST request authenticated with an application password. */
export async function appPasswordStatus(
  username: string,
  appPassword: string,
  route = '/wp/v2/users/me?context=edit',
): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${siteUrl()}/wp-json${route}`, {
    headers: { authorization: `Basic ${Buffer.from(`${username}:${appPassword}`).toString('base64')}` },
  });
  const body = (await response.json()) as { code?: string } | unknown[];
  return Array.isArray(body) ? { status: response.status } : { status: response.status, code: body.code };
}

/** Whether XML-RPC (the other API WordPress authenticates with passwords) accepts the credentials. */
export async function xmlrpcAccepts(username: string, password: string): Promise<boolean> {
  const xml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const response = await fetch(`${siteUrl()}/xmlrpc.php`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: `<?xml version="1.0"?><methodCall><methodName>wp.getProfile</methodName><params><param><value><int>1</int></value></param><param><value><string>${xml(username)}</string></value></param><param><value><string>${xml(password)}</string></value></param></params></methodCall>`,
  });
  const body = await response.text();
  return response.status === 200 && !body.includes('<fault>') && body.includes(username);
}

/**
 * Follows a reset link as a browser would: the link stores `login:key` in a cookie and
 * redirects; the form then posts pass1/pass2/rp_key (wp-login.php, action `resetpass`).
 */
export async function resetThroughLink(link: string, newPass: string): Promise<boolean> {
  const visit = await fetch(link, { redirect: 'manual' });
  const cookie = visit.headers.getSetCookie().find((c) => c.startsWith('wp-resetpass-'));
  if (visit.status !== 302 || !cookie) return false;
  const key = new URL(link).searchParams.get('key') ?? '';
  const response = await fetch(`${siteUrl()}/wp-login.php?action=resetpass`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie.split(';')[0] ?? '' },
    body: new URLSearchParams({ pass1: newPass, pass2: newPass, rp_key: key, 'wp-submit': 'Save Password' }),
  });
  return response.status === 200 && (await response.text()).includes('Your password has been reset');
}

// ---- The sandbox instance behind the tests ----------------------------------------------------

function instance() {
  return resolveInstance({ home: process.env.CMS_SANDBOX_HOME, name: process.env.CMS_TEST_SANDBOX });
}

export async function mailTo(email: string) {
  const all = await readMailLog({ home: process.env.CMS_SANDBOX_HOME, name: process.env.CMS_TEST_SANDBOX });
  return all.filter((mail) => mail.to.includes(email));
}

const execFileAsync = promisify(execFile);

/** Runs PHP inside the sandbox's WordPress (wp-load.php), e.g. to add a role; returns stdout. */
export async function wpPhp(code: string): Promise<string> {
  const bootstrap = join(packageRoot(), 'scripts', 'sandbox', 'wp-cli-bootstrap.php');
  const { stdout } = await execFileAsync('php', [...phpCacheArgs(), '-r', `require ${JSON.stringify(bootstrap)}; ${code}`], {
    cwd: instance().wpDir,
    env: { ...process.env, CMS_SANDBOX_WP_DIR: instance().wpDir, CMS_SANDBOX_URL: siteUrl() },
  });
  return stdout;
}
