import { ToolError } from '../tool-error.js';
import { csvRecords } from './csv.js';

/**
 * import-users' CSV (#50): a header naming the columns, then a row per account. Passwords are
 * never read from a file: a column that could hold one refuses the whole file, its values unread.
 */
export const COLUMNS = ['user_login', 'user_email', 'display_name', 'first_name', 'last_name', 'role', 'url'] as const;
type Column = (typeof COLUMNS)[number];
/** WP-CLI's `wp user import-csv` spelling. */
const ALIASES: Record<string, Column> = { user_url: 'url', login: 'user_login', email: 'user_email' };

export const MAX_ROWS = 10_000;

export interface ImportRow {
  line: number;
  user_login: string;
  user_email: string;
  display_name?: string;
  first_name?: string;
  last_name?: string;
  role?: string;
  url?: string;
  /** Why the row cannot be imported, found in the row itself. */
  problem?: string;
}

const badCsv = (message: string, hint: string) => new ToolError('invalid_csv', `${message} Nothing was changed.`, { hint });

function header(fields: string[]): Array<Column | undefined> {
  const names = fields.map((f) => f.trim().toLowerCase());
  const secret = names.find((n) => /pass|pwd|secret|hash/.test(n));
  if (secret !== undefined)
    throw new ToolError('password_column', `The CSV has a "${secret}" column. Passwords are never read from a file (nor chosen by a model); nothing was read or changed.`, {
      hint: 'Remove the column: new accounts get WordPress’s new-user email or a set-password link.',
    });
  const columns = names.map((n) => (COLUMNS as readonly string[]).includes(n) ? (n as Column) : ALIASES[n]);
  const unknown = names.filter((n, i) => n && columns[i] === undefined);
  const allowed = `Columns: ${COLUMNS.join(', ')} (user_login and user_email required), in a first line.`;
  if (unknown.length) throw badCsv(`Unknown column(s) ${unknown.slice(0, 5).map((n) => `"${n.slice(0, 40)}"`).join(', ')}.`, allowed);
  for (const need of ['user_login', 'user_email'] as const)
    if (!columns.includes(need)) throw badCsv(`The CSV's first line has no ${need} column.`, allowed);
  return columns;
}

const LOGIN = /^[A-Za-z0-9 _.@-]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Each data row, with the problems found in it alone (what WordPress would refuse). */
export function* importRows(csv: string): Generator<ImportRow> {
  let columns: Array<Column | undefined> | undefined;
  let count = 0;
  for (const record of csvRecords(csv)) {
    if (!columns) {
      columns = header(record.fields);
      continue;
    }
    if (++count > MAX_ROWS)
      throw new ToolError('too_many_rows', `The CSV has more than ${MAX_ROWS} rows; one call imports at most ${MAX_ROWS}. Nothing was changed.`, {
        hint: 'Split the file and import each part.',
      });
    const row: ImportRow = { line: record.line, user_login: '', user_email: '' };
    columns.forEach((column, i) => {
      const value = (record.fields[i] ?? '').trim();
      if (column && value) row[column] = value;
    });
    row.problem = problemOf(row, record.fields.length, columns.length);
    yield row;
  }
  if (!columns) throw badCsv('The CSV is empty.', `Give a first line naming the columns (${COLUMNS.join(', ')}), then a line per account.`);
}

function problemOf(row: ImportRow, fields: number, columns: number): string | undefined {
  if (fields !== columns) return `has ${fields} field(s), the first line names ${columns}`;
  if (!row.user_login) return 'no user_login';
  if (row.user_login.length > 60) return 'user_login is longer than 60 characters';
  if (!LOGIN.test(row.user_login)) return 'user_login may hold only letters, digits, spaces and _ . - @';
  if (!row.user_email) return 'no user_email';
  if (row.user_email.length > 100 || !EMAIL.test(row.user_email)) return `"${row.user_email.slice(0, 100)}" is not an email address`;
  if (row.url !== undefined && !/^https?:\/\/[^\s]+$/i.test(row.url)) return 'url must start with http:// or https://';
  for (const f of ['display_name', 'first_name', 'last_name'] as const)
    if ((row[f]?.length ?? 0) > 250) return `${f} is longer than 250 characters`;
  return undefined;
}
