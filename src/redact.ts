/**
 * Defence in depth: whatever a tool or WordPress returns, known secrets (the application
 * password, passwords given as params) are replaced before anything is printed or sent to a model.
 */
export const REDACTED = '[REDACTED]';

const SECRET_KEY = /pass(word)?|secret|token|authorization/i;

/** A param name whose value is a secret (`password`, `app_password`, `token`). */
export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  const usable = secrets.filter((s) => typeof s === 'string' && s.length >= 4);
  if (usable.length === 0) return value;
  return walk(value, usable) as T;
}

function walk(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const secret of secrets) out = out.split(secret).join(REDACTED);
    return out;
  }
  if (Array.isArray(value)) return value.map((item) => walk(item, secrets));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, secrets)]));
  }
  return value;
}

/**
 * Copy of params fit for logs and approval prompts: secret-looking keys masked, nested ones too
 * (a site ability's input is one param holding the ability's own fields, #62).
 */
export function maskSecretParams(params: unknown): unknown {
  if (Array.isArray(params)) return params.map(maskSecretParams);
  if (!params || typeof params !== 'object') return params;
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, SECRET_KEY.test(k) && typeof v === 'string' ? REDACTED : maskSecretParams(v)]),
  );
}

/** String values of secret-looking keys (e.g. `password`), nested ones too, to add to the redaction list. */
export function secretValues(params: unknown): string[] {
  if (Array.isArray(params)) return params.flatMap(secretValues);
  if (!params || typeof params !== 'object') return [];
  return Object.entries(params).flatMap(([k, v]) => (SECRET_KEY.test(k) && typeof v === 'string' ? [v] : secretValues(v)));
}

/**
 * Reset keys in wp-login.php links (`?action=rp&key=…&login=…`) masked, for traces and debug
 * logs that may hold a tool result made for a person.
 */
export function maskResetKeys(text: string): string {
  return text.replace(/([?&](?:amp;)?key=)[^&\s"'<>\\]+/g, `$1${REDACTED}`);
}
