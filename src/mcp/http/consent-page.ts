import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Response } from 'express';

/**
 * Our own consent page, shown before anyone is sent to WordPress: anyone can register a client
 * under any name, so the person must see where the code will go (the redirect's host) and what
 * the client will be able to do, and press Approve on a page no other site can frame or submit.
 */

/** Where the code goes, in words: the host of an https/http redirect, or the app scheme. */
export function redirectHost(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.host : url.protocol;
}

/**
 * The client's name as it may be shown: without control or format characters (a right-to-left
 * override in the name would otherwise turn the host that follows it around on WordPress's page).
 */
export function clientName(client: OAuthClientInformationFull): string | undefined {
  return client.client_name?.replace(/[\p{Cc}\p{Cf}]/gu, '');
}

/** Characters of the client's own name kept in WordPress's name for it (the rest is cut, with "…"). */
const SHOWN_NAME = 60;

/**
 * The name WordPress shows on authorize-application.php and in the person's profile afterwards.
 * The redirect's host is never cut (its end is the registrable domain: a cut kept
 * "claude.ai.connectors…" and dropped "evil.example", #48): registration refuses hosts too long to
 * show whole (registration.ts), and only the client's own name is shortened.
 */
export function wordpressAppName(client: OAuthClientInformationFull, redirectUri: string): string {
  const chars = Array.from(clientName(client) || 'MCP client');
  const name = chars.length > SHOWN_NAME ? `${chars.slice(0, SHOWN_NAME - 1).join('').trimEnd()}…` : chars.join('');
  return `${name} → ${redirectHost(redirectUri)} (cms-admin MCP)`;
}

export interface ConsentView {
  client: OAuthClientInformationFull;
  redirectUri: string;
  siteUrl: string;
  action: string;
  pending: string;
  csrf: string;
  /** A grant unused this many days ends (the refresh token's lifetime). */
  idleDays: number;
}

/** Headers of every page a person acts on: never framed (clickjacking), nothing loaded or run. */
export function pageHeaders(res: Response): void {
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  );
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Not no-referrer: browsers then send `Origin: null` with the form's POST, which the Origin check refuses.
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-store');
}

export function consentPage(view: ConsentView): string {
  const name = clientName(view.client) || '(no name given)';
  const url = new URL(view.redirectUri);
  const local = url.protocol === 'http:';
  const host = redirectHost(view.redirectUri);
  const where =
    url.protocol === 'https:'
      ? `the website <strong>${esc(host)}</strong>`
      : local
        ? `<strong>${esc(host)}</strong>, a program on the computer where your browser runs`
        : `the app on your device that opens <strong>${esc(host)}</strong> links`;
  const registered = view.client.client_id_issued_at
    ? new Date(view.client.client_id_issued_at * 1000).toISOString().replace('T', ' ').slice(0, 16)
    : 'unknown';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Connect an app to ${esc(view.siteUrl)}?</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:38em;margin:2em auto;padding:0 1em}
.warn{background:#fff4e5;border-left:4px solid #e67e00;padding:.5em 1em}button{font-size:1em;padding:.4em 1.2em;margin-right:1em}</style>
</head><body>
<h1>Connect an app to ${esc(view.siteUrl)}?</h1>
<p>An app that calls itself <strong>“${esc(name)}”</strong> asks to use cms-admin on this WordPress site as you.
This name was given by the app itself and is <strong>not verified</strong>: anyone can register an app under any name.</p>
<p class="warn" id="redirect">After you approve, your browser is sent to ${where}
(<code>${esc(view.redirectUri)}</code>), with a code that lets the app act as you.
If you did not start this from an app you trust, or you do not know ${esc(host)}, deny.</p>
<h2>What it will be able to do</h2>
<ul>
<li>Act on ${esc(view.siteUrl)} as you, with your role: everything this server's cms-admin tools do that your account may do —
read and change categories, tags and other terms, posts' terms, users and their roles, sessions and application passwords, and undo your changes.</li>
<li>Questions before risky changes are asked through this app, and the app gives your answers back: they protect you only as far as you trust the app.</li>
<li>Keep this access until you revoke it (in your WordPress profile, under Application Passwords) or it goes unused for ${view.idleDays} days.</li>
</ul>
<p>It cannot see your WordPress password. Next, WordPress asks you to approve an application password named
<strong>“${esc(wordpressAppName(view.client, view.redirectUri))}”</strong>.</p>
${
  view.client.client_id.startsWith('https://')
    ? `<p id="client-document">The app describes itself in a document at <strong>${esc(new URL(view.client.client_id).host)}</strong>
(<code>${esc(view.client.client_id)}</code>): its name and where the code may go come from there.</p>`
    : `<p><small>Client id ${esc(view.client.client_id)}, registered ${esc(registered)} UTC.</small></p>`
}
<form method="post" action="${esc(view.action)}">
<input type="hidden" name="pending" value="${esc(view.pending)}">
<input type="hidden" name="csrf" value="${esc(view.csrf)}">
<button type="submit" name="choice" value="approve">Approve and continue to WordPress</button>
<button type="submit" name="choice" value="deny">Deny</button>
</form>
</body></html>
`;
}

/** An /authorize error shown here instead of redirecting to a client no one approved (oauth-errors.ts). */
export function errorPage(view: { error: string; description: string; to: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>This sign-in request is not valid</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:38em;margin:2em auto;padding:0 1em}</style>
</head><body>
<h1>This sign-in request is not valid</h1>
<p>The app's request cannot go on: ${esc(view.description || view.error)} (<code>${esc(view.error)}</code>).</p>
<p>You were not sent on to the app's address (<strong>${esc(view.to)}</strong>): no one has approved this app
in this browser, and this server never sends a browser to an address it cannot vouch for.</p>
<p>Start again from your MCP client. If this keeps happening, the app is asking in a way this server does not accept.</p>
</body></html>
`;
}

function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** One cookie from the request's Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
