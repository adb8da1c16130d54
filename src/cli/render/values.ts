/**
 * A value as a table cell: lists joined, objects in words, long text cut (the table cuts to fit
 * too). Nested values are read by their shape, whatever the tool (#60.6: find-duplicate-terms'
 * terms and a network's sites showed as raw JSON): an object that names something is its name,
 * its id and its other fields ("News (id 2, slug news, posts 0)"), any other object its pairs
 * ("main: administrator, sports: editor"), a list of objects one after another ("…; …").
 */
export function cellText(value: unknown, max = 200): string {
  const text = readable(value, 0);
  // A date to the minute (WordPress's seconds and offset take room a table needs for names).
  const single = text.replace(/\s+/g, ' ').replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)(:\d\d)?(\.\d+)?(Z|[+-]\d\d:\d\d)?$/, '$1 $2');
  return single.length > max ? `${single.slice(0, max - 1)}…` : single;
}

/** The fields that name an object, the first one present wins. */
const LABELS = ['name', 'title', 'username', 'login', 'label', 'slug', 'site', 'role'] as const;
/** Deeper than this, what is left is shown as JSON (a cell has no room for a tree). */
const MAX_DEPTH = 3;

function readable(value: unknown, depth: number): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  if (depth >= MAX_DEPTH) return JSON.stringify(value);
  if (Array.isArray(value)) {
    const objects = value.some((v) => v && typeof v === 'object');
    // A list inside an object's pair is joined with "/" so its commas do not read as the next pair.
    return value.map((v) => readable(v, depth + 1)).join(objects ? '; ' : depth ? '/' : ', ');
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && !v.length),
  );
  const label = LABELS.find((key) => typeof (value as Record<string, unknown>)[key] === 'string' && (value as Record<string, unknown>)[key]);
  if (!label) return entries.map(([k, v]) => `${k}: ${readable(v, depth + 1)}`).join(', ');
  const rest = entries.filter(([k]) => k !== label).map(([k, v]) => `${k} ${readable(v, depth + 1)}`);
  return `${String((value as Record<string, unknown>)[label])}${rest.length ? ` (${rest.join(', ')})` : ''}`;
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
