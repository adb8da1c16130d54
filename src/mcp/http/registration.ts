import { CustomOAuthError, InvalidClientMetadataError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * What dynamic client registration (RFC 7591) accepts. Registration needs no sign-in, so anyone
 * can register: redirect URIs are limited to places a code cannot be caught by a third party on
 * the network (RFC 8252, RFC 9700 §2.1), and sizes are bounded.
 */
export const MAX_REDIRECT_URIS = 10;
export const MAX_URI_LENGTH = 2000;
export const MAX_NAME_LENGTH = 200;
/**
 * The longest redirect host (or app scheme) accepted: a DNS name's limit (RFC 1035 §2.3.4). The
 * consent page and WordPress's page show it whole, whatever its length (#48 finding 3).
 */
export const MAX_HOST_LENGTH = 253;

/**
 * The methods our /token takes: the SDK's client authentication reads `client_id` and
 * `client_secret` from the form body only (no HTTP Basic), and public clients send no secret.
 */
export const TOKEN_AUTH_METHODS = ['client_secret_post', 'none'] as const;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/**
 * An app's own scheme (RFC 8252 §7.1): a reverse domain name (com.example.app:) as the RFC
 * recommends, or a bare word as real clients use (cursor:, vscode:) — the consent page names it.
 */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+.-]*:$/;
/** Schemes a browser opens itself (content, files, scripts, other protocols): never an app's. */
const BROWSER_SCHEMES = new Set([
  'about:', 'blob:', 'chrome:', 'data:', 'edge:', 'file:', 'filesystem:', 'ftp:', 'intent:', 'javascript:',
  'jar:', 'mailto:', 'resource:', 'view-source:', 'vbscript:', 'ws:', 'wss:',
]);

/** Why `uri` is refused as a redirect URI, or undefined when it is accepted. */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.includes('#')) return `${uri} has a fragment (#…): redirect URIs never do (RFC 6749 §3.1.2)`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not a URL`;
  }
  if (url.username || url.password) return `${uri} carries a user name or password`;
  const place = url.protocol === 'https:' || url.protocol === 'http:' ? url.hostname : url.protocol;
  if (place.length > MAX_HOST_LENGTH)
    return `${uri.slice(0, 100)}… has a ${url.hostname ? 'host' : 'scheme'} of ${place.length} characters: at most ${MAX_HOST_LENGTH} (a DNS name's limit), so that the person approving is shown it whole`;
  if (url.protocol === 'https:') return url.hostname ? undefined : `${uri} names no host`;
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? undefined
      : `${uri} is plain http on another machine: use https, http on 127.0.0.1, [::1] or localhost, or an app's own scheme (com.example.app:/callback)`;
  }
  return PRIVATE_USE_SCHEME.test(url.protocol) && !BROWSER_SCHEMES.has(url.protocol)
    ? undefined
    : `${uri} uses the scheme ${url.protocol}, which the browser handles itself — only https, loopback http, or an app's own scheme (com.example.app:/callback, cursor://…) are accepted`;
}

/**
 * The client as it will be stored, or an OAuth error the SDK's handler answers with 400:
 * `invalid_redirect_uri` for a redirect URI, `invalid_client_metadata` for anything else.
 */
export function checkRegistration(client: OAuthClientInformationFull): OAuthClientInformationFull {
  const uris = client.redirect_uris ?? [];
  if (uris.length === 0) throw new CustomOAuthError('invalid_redirect_uri', 'register at least one redirect URI');
  if (uris.length > MAX_REDIRECT_URIS)
    throw new InvalidClientMetadataError(`at most ${MAX_REDIRECT_URIS} redirect URIs, not ${uris.length}`);
  if (uris.some((uri) => uri.length > MAX_URI_LENGTH))
    throw new InvalidClientMetadataError(`a redirect URI is longer than ${MAX_URI_LENGTH} characters`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new CustomOAuthError('invalid_redirect_uri', problem);
  }
  // application_type (OpenID Connect Registration): a web app's code goes to https only; a native
  // app's also to loopback http or its own scheme (RFC 8252). Not given: either, as before.
  const type = (client as { application_type?: unknown }).application_type;
  if (type !== undefined && type !== 'web' && type !== 'native')
    throw new InvalidClientMetadataError(`application_type must be web or native, not ${String(type).slice(0, 40)}`);
  if (type === 'web') {
    const notHttps = uris.find((uri) => new URL(uri).protocol !== 'https:');
    if (notHttps)
      throw new CustomOAuthError('invalid_redirect_uri', `${notHttps} is not https: a web application (application_type web) redirects to https only`);
  }
  if ((client.client_name ?? '').length > MAX_NAME_LENGTH)
    throw new InvalidClientMetadataError(`client_name is longer than ${MAX_NAME_LENGTH} characters`);
  // Asked for explicitly, an unsupported method is refused rather than replaced: a client that can
  // only do HTTP Basic would otherwise get a secret it cannot use and fail later, at /token.
  const method = client.token_endpoint_auth_method;
  if (method !== undefined && !(TOKEN_AUTH_METHODS as readonly string[]).includes(method)) {
    throw new InvalidClientMetadataError(
      `token_endpoint_auth_method ${method} is not supported: use ${TOKEN_AUTH_METHODS.join(' or ')}`,
    );
  }
  for (const [key, value] of Object.entries(client)) {
    const text = typeof value === 'string' ? value : Array.isArray(value) ? value.join(' ') : '';
    if (text.length > MAX_URI_LENGTH * MAX_REDIRECT_URIS || (typeof value === 'string' && text.length > MAX_URI_LENGTH))
      throw new InvalidClientMetadataError(`${key} is too long`);
    if (Array.isArray(value) && value.length > MAX_REDIRECT_URIS)
      throw new InvalidClientMetadataError(`${key} has more than ${MAX_REDIRECT_URIS} entries`);
  }
  // Keys we never use are not kept (a JWKS or a software statement could be large).
  const { jwks: _jwks, jwks_uri: _uri, software_statement: _statement, ...kept } = client;
  // Omitted, RFC 7591's default would be client_secret_basic, which /token cannot take: the
  // answer names the method this client must use (the SDK issued it a secret).
  return { ...kept, token_endpoint_auth_method: method ?? 'client_secret_post' };
}
