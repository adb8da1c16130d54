import type { NextFunction, Request, Response } from 'express';
import { errorPage, pageHeaders } from './consent-page.js';

/**
 * The MCP SDK's OAuth handlers put zod's error dump (a JSON array of issues) in
 * `error_description`, which a client shows a person as is. This says the same in a sentence:
 * "code_challenge_method must be "S256"; code_challenge is missing".
 */
export function plainDescription(text: string): string {
  if (!text.trimStart().startsWith('[')) return text;
  let issues: Array<{ path?: unknown[]; code?: string; values?: unknown[]; message?: string; input?: unknown }>;
  try {
    issues = JSON.parse(text);
  } catch {
    return text;
  }
  if (!Array.isArray(issues)) return text;
  return issues
    .map((issue) => {
      const field = (issue.path ?? []).join('.') || 'the request';
      if (issue.code === 'invalid_type' && /received undefined/.test(issue.message ?? '')) return `${field} is missing`;
      if (issue.code === 'invalid_value' && issue.values?.length)
        return `${field} must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`;
      if (issue.code === 'invalid_format')
        return `${field} is not a valid ${/url/i.test(issue.message ?? '') ? 'URL' : 'value'}`;
      return issue.message?.includes(field) ? issue.message : `${field}: ${issue.message ?? 'invalid'}`;
    })
    .join('; ');
}

/** Rewrites `error_description` in the JSON answers and error redirects of the OAuth endpoints. */
export function plainOAuthErrors(_req: Request, res: Response, next: NextFunction): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const answer = body as { error_description?: unknown };
    if (answer && typeof answer.error_description === 'string')
      return json({ ...answer, error_description: plainDescription(answer.error_description) });
    return json(body);
  };
  const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
  res.redirect = ((status: number | string, url?: string) => {
    const [code, target] = typeof status === 'number' ? [status, url as string] : [302, status];
    return redirect(code, rewriteLocation(target));
  }) as Response['redirect'];
  next();
}

function rewriteLocation(target: string): string {
  try {
    const url = new URL(target);
    const description = url.searchParams.get('error_description');
    if (description === null || !url.searchParams.has('error')) return target;
    url.searchParams.set('error_description', plainDescription(description));
    return url.href;
  } catch {
    return target;
  }
}

/**
 * /authorize's errors are never redirected to a client no person has consented to in this browser
 * (RFC 9700 §4.11): the SDK's handler sends anything wrong after the client and redirect URI
 * check (no PKCE, a wrong response_type or resource) straight to the redirect URI, so a client
 * registered a moment ago would make this server an open redirector to wherever it likes
 * (#48 finding 5). Those become our own page (400), naming the problem; with remembered consent
 * they go back to the client as OAuth says.
 */
export function authorizeErrorsAsPage(consented: (req: Request, clientId: string) => boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
    res.redirect = ((status: number | string, url?: string) => {
      const [code, target] = typeof status === 'number' ? [status, url as string] : [302, status];
      const error = oauthError(target);
      const fields = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown> | undefined;
      const clientId = typeof fields?.client_id === 'string' ? fields.client_id : '';
      if (!error || consented(req, clientId)) return redirect(code, target);
      pageHeaders(res);
      res.status(400).type('html').send(errorPage({ ...error, description: plainDescription(error.description) }));
    }) as Response['redirect'];
    next();
  };
}

/** The OAuth error a redirect carries to its client, or undefined for any other redirect. */
function oauthError(target: string): { error: string; description: string; to: string } | undefined {
  try {
    const url = new URL(target);
    const error = url.searchParams.get('error');
    if (error === null) return undefined;
    const to = url.protocol === 'https:' || url.protocol === 'http:' ? url.host : url.protocol;
    return { error, description: url.searchParams.get('error_description') ?? '', to };
  } catch {
    return undefined;
  }
}

/**
 * RFC 9207: an authorization response — a redirect back to the client carrying `code` or `error`
 * — carries `iss`, our issuer, so a client talking to several servers knows which one answered
 * (mix-up attacks). Other redirects (to WordPress, to our consent page) are left as they are.
 */
export function issuerInResponses(issuer: string) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
    res.redirect = ((status: number | string, url?: string) => {
      const [code, target] = typeof status === 'number' ? [status, url as string] : [302, status];
      try {
        const back = new URL(target);
        if (back.searchParams.has('code') || back.searchParams.has('error')) {
          back.searchParams.set('iss', issuer);
          return redirect(code, back.href);
        }
      } catch {
        // not an absolute URL: not a response to a client
      }
      return redirect(code, target);
    }) as Response['redirect'];
    next();
  };
}
