import { ToolError } from '../tool-error.js';

/**
 * The toolkit's password rules (docs/users.md). Length over composition, as NIST SP 800-63B
 * §5.1.1.2 advises (https://pages.nist.gov/800-63-3/sp800-63b.html#memsecret), plus what
 * WordPress itself would trip over.
 */
export const PASSWORD_RULES = '≥12 chars, ≥6 distinct, not containing username/email';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/** Throws `weak_password` listing every rule the password breaks; never echoes the password. */
export function checkPassword(password: string, account: { username: string; email: string }): void {
  const problems: string[] = [];
  if ([...password].length < MIN_PASSWORD_LENGTH) problems.push(`it has fewer than ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) problems.push(`it has more than ${MAX_PASSWORD_LENGTH} characters`);
  if (new Set(password).size < 6) problems.push('it has fewer than 6 different characters');
  // wp_authenticate() trims the password typed at login, so such a password could never be used.
  if (password !== password.trim()) problems.push('it starts or ends with whitespace');
  // The REST API refuses it (WP_REST_Users_Controller::check_user_password).
  if (password.includes('\\')) problems.push('it contains a backslash');
  const lower = password.toLowerCase();
  const [local = ''] = account.email.toLowerCase().split('@');
  for (const [what, value] of [
    ['username', account.username.toLowerCase()],
    ['email address', account.email.toLowerCase()],
    ['email name', local],
  ] as const) {
    if (value && (lower === value || (value.length >= 4 && lower.includes(value)))) {
      problems.push(`it contains the ${what}`);
      break;
    }
  }
  if (problems.length) {
    throw new ToolError('weak_password', `The password was refused: ${problems.join('; ')}. Nothing was changed.`, {
      hint: `Passwords need ${PASSWORD_RULES}.`,
    });
  }
}
