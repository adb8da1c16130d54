import { redactUrl } from './errors.js';

/**
 * Plain `http:` carries the application password as Basic credentials anyone on the network path
 * can read (issue #48 finding 6). It is allowed for this machine only (loopback: the sandbox, a
 * tunnel's local end), or when the person says so: `--allow-insecure-http`, env
 * CMS_ALLOW_INSECURE_HTTP=1, or `allowInsecureHttp: true`. Decided by the address alone, before
 * any request: a name is loopback by what it says (RFC 6761's localhost names), never by DNS.
 */

const LOOPBACK_NAME = /^(localhost|[a-z0-9.-]+\.localhost)\.?$/i;
/** 127.0.0.0/8 as the URL parser writes it (it turns 127.1 and 0x7f.0.0.1 into 127.0.0.1), ::1 and ::ffff:127.x. */
const LOOPBACK_IP = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/i;

/** True for an address on this machine: 127.0.0.0/8, [::1], localhost and *.localhost. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_IP.test(hostname) || LOOPBACK_NAME.test(hostname);
}

/** The env switch of the library and the CLI (the CLI's --allow-insecure-http sets it). */
export function insecureHttpAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(1|true|yes)$/i.test(env.CMS_ALLOW_INSECURE_HTTP?.trim() ?? '');
}

/** Why `url` is refused (plain http to another machine), or undefined when it may carry credentials. */
export function insecureHttpProblem(url: string, what = 'The site address'): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // not a URL: the caller says so
  }
  if (parsed.protocol !== 'http:' || isLoopbackHost(parsed.hostname)) return undefined;
  const https = new URL(redactUrl(url));
  https.protocol = 'https:';
  return `${what} ${redactUrl(url)} is plain http to another machine: the application password would cross the network unencrypted, readable by anyone on the way. Use ${https.href.replace(/\/$/, '')} (https), or, on a network you trust, allow it with --allow-insecure-http (CMS_ALLOW_INSECURE_HTTP=1; allowInsecureHttp: true in the library).`;
}

/**
 * A request to `from` carried the application password (Basic auth) over plain http: said when
 * the site then points elsewhere, since "nothing was sent there" alone would hide it (#48).
 */
export function sentInClear(from: string): { said: string; fix: string } | undefined {
  const url = new URL(from);
  if (url.protocol !== 'http:') return undefined;
  if (isLoopbackHost(url.hostname)) {
    return {
      said: `The request to ${url.origin} did carry it unencrypted (plain http), on this machine only.`,
      fix: '',
    };
  }
  return {
    said: `But the request to ${url.origin} had already carried it unencrypted (plain http), readable by anyone on the network path.`,
    fix: 'Treat the application password as exposed: revoke it (Users → Profile → Application Passwords), make a new one, and use https. ',
  };
}
