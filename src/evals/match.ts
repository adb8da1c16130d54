/**
 * Comparison used by every eval check: `expected` is a subset of `actual` — objects need only
 * the expected keys, arrays compare as sets (same length, order ignored), scalars strictly.
 */
export function matchesSubset(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    const left = [...actual];
    return expected.every((item) => {
      const index = left.findIndex((candidate) => matchesSubset(item, candidate));
      if (index < 0) return false;
      left.splice(index, 1);
      return true;
    });
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) =>
      matchesSubset(value, (actual as Record<string, unknown>)[key]),
    );
  }
  return Object.is(expected, actual);
}

/** The keys where `actual` is not as expected, as `key: got X, expected Y`. */
export function subsetDifferences(expected: Record<string, unknown>, actual: Record<string, unknown>): string[] {
  return Object.entries(expected)
    .filter(([key, value]) => !matchesSubset(value, actual[key]))
    .map(([key, value]) =>
      key in actual
        ? `${key}: got ${describeValue(actual[key])}, expected ${describeValue(value)}`
        : `${key}: missing, expected ${describeValue(value)}`,
    );
}

/** Whether an array holds each of `values` (or, with `present: false`, none of them). */
export function arrayDifferences(
  field: string,
  actual: unknown,
  values: readonly unknown[],
  present: boolean,
): string[] {
  const list = Array.isArray(actual) ? actual : [];
  const wrong = values.filter((value) => list.some((item) => matchesSubset(value, item)) !== present);
  if (!wrong.length) return [];
  return [`${field} ${describeValue(list)} ${present ? 'lacks' : 'still has'} ${describeValue(wrong)}`];
}

/** Compact JSON for messages, cut at `max` characters. */
export function describeValue(value: unknown, max = 200): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
