import { ConfigError } from '../../config-error.js';
import { cellText } from './values.js';
import { renderTable, terminalWidth } from './table.js';

type Item = Record<string, unknown>;

/** `--format` of a list answer, as `wp … list --format` (#52.2). */
export const FORMATS = ['table', 'json', 'csv', 'ids', 'count'] as const;
export type Format = (typeof FORMATS)[number];

export interface ListFormat {
  format: Format;
  fields?: string[];
}

/** The flags → the format, or undefined when neither is given; a wrong value is a usage error (exit 2). */
export function readFormatFlags(options: { format?: string; fields?: string }): ListFormat | undefined {
  if (options.format === undefined && options.fields === undefined) return undefined;
  const format = (options.format ?? 'table') as Format;
  if (!FORMATS.includes(format)) throw new ConfigError(`--format takes ${FORMATS.join(', ')}; got "${String(options.format).slice(0, 40)}".`, 'invalid_config');
  const fields = options.fields
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (options.fields !== undefined && !fields?.length) throw new ConfigError('--fields takes field names, comma-separated: --fields id,name.', 'invalid_config');
  return { format, ...(fields ? { fields } : {}) };
}

/** The fields the items have, in the order the tool gives them (the first item's first). */
export function itemFields(items: readonly Item[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(item)) seen.add(key);
  return [...seen];
}

/**
 * A list answer's items in a format: `table` (aligned), `json` (an array of the items), `csv`
 * (a header line, RFC 4180 quoting, lists comma-joined), `ids` (space-separated, as wp-cli),
 * `count` (the list's total, every page). `--fields` picks and orders the fields; a field the
 * items do not have is an error naming those they have.
 */
export function formatItems(items: readonly Item[], how: ListFormat, total = items.length, width = terminalWidth()): string {
  const known = itemFields(items);
  const unknown = how.fields?.filter((f) => !known.includes(f)) ?? [];
  if (unknown.length && items.length) {
    throw new ConfigError(`--fields: no field ${unknown.map((f) => `"${f}"`).join(', ')} in these items; they have ${known.join(', ')}.`, 'invalid_config');
  }
  const fields = how.fields ?? known;
  switch (how.format) {
    case 'count':
      return String(total);
    case 'ids':
      return items
        .map((item) => item.id ?? item.uuid)
        .filter((v) => typeof v === 'number' || typeof v === 'string')
        .join(' ');
    case 'json':
      return JSON.stringify(items.map((item) => Object.fromEntries(fields.filter((f) => f in item).map((f) => [f, item[f]]))));
    case 'csv':
      return [fields, ...items.map((item) => fields.map((f) => csvValue(item[f])))].map((row) => row.map(csvCell).join(',')).join('\n');
    case 'table':
      return items.length ? renderTable(fields, items.map((item) => fields.map((f) => cellText(item[f]))), width) : '';
  }
}

function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object')) return value.join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
