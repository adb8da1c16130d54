import { type WordPressClient, WordPressError } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import { pluginRefusal } from '../refusals.js';
import { roleError } from './roles.js';

/**
 * WordPress's answers to a user write, as errors the model can act on. Duplicates come back
 * from wp_insert_user() as WP_Errors without a status, which the REST API sends as HTTP 500
 * (`existing_user_login`, `existing_user_email`); an update to an email another user has is
 * a 400 "Invalid email address." (`rest_user_invalid_email`, WP_REST_Users_Controller::update_item).
 */
export async function explainWriteError(
  client: WordPressClient,
  err: unknown,
  attempted: { id?: number; username?: string; email?: string; role?: string },
): Promise<unknown> {
  if (!(err instanceof WordPressError)) return err;
  if (err.code === 'existing_user_login' && attempted.username) {
    return userExists(attempted.username, await findUserId(client, attempted.username, 'username'));
  }
  if ((err.code === 'existing_user_email' || err.code === 'rest_user_invalid_email') && attempted.email) {
    const id = await findUserId(client, attempted.email, 'email');
    if (id === undefined && err.code === 'rest_user_invalid_email') return invalidEmail(attempted.email);
    return emailInUse(attempted.email, id);
  }
  if (err.code === 'rest_invalid_param' && hasParamError(err, 'email')) return invalidEmail(attempted.email ?? '');
  return attempted.role ? roleError(err, attempted.role) : err;
}

/**
 * The user_exists / email_in_use refusal WordPress would give, found before anyone is asked
 * (#36): a username or email another account (not `self`) already has.
 */
export async function refuseTaken(
  client: WordPressClient,
  wanted: { username?: string; email?: string },
  self?: number,
): Promise<void> {
  // What WordPress's is_email() refuses, refused by the review too (a dry run answers as the call, #52.10).
  if (wanted.email !== undefined && !isEmail(wanted.email)) throw invalidEmail(wanted.email);
  const [byName, byEmail] = await Promise.all([
    wanted.username ? findUserId(client, wanted.username, 'username') : undefined,
    wanted.email ? findUserId(client, wanted.email, 'email') : undefined,
  ]);
  if (wanted.username && byName !== undefined && byName !== self) throw userExists(wanted.username, byName);
  if (wanted.email && byEmail !== undefined && byEmail !== self) throw emailInUse(wanted.email, byEmail);
}

function userExists(username: string, id: number | undefined): ToolError {
  return new ToolError('user_exists', `A user with username "${username}" already exists${id ? ` (id ${id})` : ''}. Nothing was created.`, {
    hint: 'Choose another username, or use update-user on the existing account.',
    details: id ? { id } : undefined,
  });
}

function emailInUse(email: string, id: number | undefined): ToolError {
  return new ToolError(
    'email_in_use',
    `The email address ${email} already belongs to ${id ? `user ${id}` : 'another user'}. Nothing was changed.`,
    { hint: 'Each WordPress account needs its own email address; use a different one.', details: id ? { id } : undefined },
  );
}

/**
 * WordPress's is_email() (wp-includes/formatting.php), without its filters: at least 6 characters,
 * a local part of its allowed characters, a domain of two or more dot-separated labels of letters,
 * digits and inner hyphens.
 */
export function isEmail(email: string): boolean {
  if (email.length < 6) return false;
  const at = email.indexOf('@', 1);
  if (at < 1) return false;
  const [local, domain] = [email.slice(0, at), email.slice(at + 1)];
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local)) return false;
  if (domain.includes('..') || domain.trim() !== domain || /^[.\s]|[.\s]$/.test(domain)) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((l) => /^[a-z0-9-]+$/i.test(l) && !/^-|-$/.test(l));
}

export function invalidEmail(email: string): ToolError {
  return new ToolError('invalid_email', `"${email}" is not a valid email address. Nothing was changed.`, {
    hint: 'Give an address like name@example.com.',
  });
}

function hasParamError(err: WordPressError, param: string): boolean {
  const params = (err.data as { params?: Record<string, unknown> } | undefined)?.params;
  return Boolean(params && param in params);
}

/** The id of the user with exactly this username or email (WordPress's search is a substring match). */
async function findUserId(
  client: WordPressClient,
  value: string,
  field: 'username' | 'email',
): Promise<number | undefined> {
  try {
    const found = await client.get<Array<{ id: number; username?: string; email?: string }>>('/wp/v2/users', {
      context: 'edit',
      _fields: 'id,username,email',
      search: value,
      per_page: 100,
    });
    return found.find((u) => (u[field] ?? '').toLowerCase() === value.toLowerCase())?.id;
  } catch (lookupError) {
    // Only an enrichment of the error at hand: without the id the message still holds.
    if (lookupError instanceof WordPressError) return undefined;
    throw lookupError;
  }
}

/**
 * The companion plugin's account guards (plugin/…/account-guards.php) as errors that say why
 * and who can do it instead; anything else unchanged.
 */
export function explainGuardError(err: unknown): unknown {
  if (!(err instanceof WordPressError)) return err;
  const refused = pluginRefusal(err);
  if (refused) return refused;
  if (err.code === 'cms_admin_busy') {
    return new ToolError('site_busy', `${err.message} Nothing was changed.`, {
      hint: 'Another request was changing administrators at the same moment; run the call again.',
    });
  }
  return err;
}
