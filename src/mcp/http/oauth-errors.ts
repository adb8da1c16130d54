import type { NextFunction, Request, Response } from 'express';

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
