import { WordPressError } from '../client/index.js';
import { pluginRefusal } from './refusals.js';
import { ToolError, type ToolErrorPayload } from './tool-error.js';

/** User-fixable problems become a payload; anything else (a bug) returns undefined. */
export function toErrorPayload(err: unknown): ToolErrorPayload | undefined {
  if (err instanceof ToolError) {
    return compact({ code: err.code, message: err.message, hint: err.hint, details: err.details });
  }
  if (err instanceof WordPressError) {
    const refused = pluginRefusal(err);
    if (refused) return toErrorPayload(refused);
    return compact({ code: err.code, message: err.message, hint: hintFor(err), details: detailsFor(err) });
  }
  return undefined;
}

function hintFor(err: WordPressError): string | undefined {
  if (err.hint) return err.hint;
  if (err.code === 'authentication_failed') return 'Fix the credentials, then try again.';
  if (err.code === 'cancelled')
    return 'The person cancelled this call. What ran before the cancel stays done: read the site before retrying.';
  // 501: WordPress does not do this on this site (a delete on a multisite network), and said so.
  if (err.status === 501) return 'WordPress does not do this on this site, and changed nothing.';
  const write = err.request !== undefined && !['GET', 'HEAD'].includes(err.request.method);
  if (write && (err.status === undefined || err.status >= 500))
    return 'The request was sent and its answer lost: WordPress may have applied it. Check the site (list what it changes) before trying again.';
  if (err.status === undefined) return 'Check that the site is reachable (CMS_URL) and try again.';
  if (err.status === 401 || err.status === 403)
    return 'The WordPress account lacks permission for this; use an administrator’s application password (on a multisite network, editing its accounts takes a super admin’s).';
  if (err.status === 404) return 'Check the id: the list tools show the ids that exist.';
  if (err.status >= 500) return 'WordPress failed on its side; try again, or check the site’s PHP error log.';
  return undefined;
}

function detailsFor(err: WordPressError): unknown {
  const data = err.data as { params?: unknown; details?: unknown } | undefined;
  return data?.params ?? data?.details;
}

function compact(payload: ToolErrorPayload): ToolErrorPayload {
  return Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined)) as unknown as ToolErrorPayload;
}
