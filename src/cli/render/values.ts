/** A value as a table cell: lists joined, objects as compact JSON, long text cut (the table cuts to fit too). */
export function cellText(value: unknown, max = 200): string {
  const text =
    value === null || value === undefined
      ? ''
      : Array.isArray(value) && value.every((v) => typeof v !== 'object')
        ? value.join(', ')
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  // A date to the minute (WordPress's seconds and offset take room a table needs for names).
  const single = text.replace(/\s+/g, ' ').replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)(:\d\d)?(\.\d+)?(Z|[+-]\d\d:\d\d)?$/, '$1 $2');
  return single.length > max ? `${single.slice(0, max - 1)}…` : single;
}

/** A value as the tool shell reads it back in `key=value` (tool-shell.ts): bare when it can be. */
export function shellValue(value: unknown): string {
  if (typeof value === 'string') {
    // A string that would parse as JSON (a number, true) or holds spaces or quotes is quoted.
    let parses = true;
    try {
      JSON.parse(value);
    } catch {
      parses = false;
    }
    return parses || /[\s"'=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  }
  return JSON.stringify(value);
}
