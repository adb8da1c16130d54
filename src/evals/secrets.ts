import { maskSecretParams, redactSecrets } from '../redact.js';

/** Keys whose string values are secrets wherever they appear: passwords, tokens, reset links. */
const SECRET_KEY = /pass(word)?|secret|token|authorization|reset_link/i;

/** Every secret-looking string value in `value`, at any depth (case files, tool args, results). */
export function collectSecrets(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) collectSecrets(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && SECRET_KEY.test(key)) into.add(item);
      else collectSecrets(item, into);
    }
  }
  return into;
}

/** Secrets inside a tool result (a JSON string; anything else is ignored). */
export function resultSecrets(result: string | undefined, into: Set<string>): void {
  if (!result) return;
  try {
    collectSecrets(JSON.parse(result), into);
  } catch {
    // Not JSON: nothing structured to collect.
  }
}

/** The report-safe copy: secret-looking args masked, every known secret string replaced. */
export function redactForReport<T>(value: T, secrets: Iterable<string>): T {
  return redactSecrets(value, [...secrets]);
}

export function maskArgs(args: Record<string, unknown>): Record<string, unknown> {
  return (maskSecretParams(args) ?? {}) as Record<string, unknown>;
}
