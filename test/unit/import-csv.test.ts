import { describe, expect, it } from 'vitest';
import { csvRecords } from '../../src/tools/users/csv.js';
import { importRows } from '../../src/tools/users/import-rows.js';

describe('import-users CSV', () => {
  it('reads RFC 4180: quotes, doubled quotes, commas and line breaks inside quotes, CRLF, a BOM, blank lines', () => {
    const text = '\uFEFFa,b\r\n"x, y","say ""hi"""\n\n"two\nlines",z\r\n';
    expect([...csvRecords(text)]).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"'] },
      { line: 4, fields: ['two\nlines', 'z'] },
    ]);
  });

  it('names each row’s own problem and takes WP-CLI’s column names', () => {
    const rows = [...importRows('user_login,user_email,user_url\nann,ann@example.org,https://a.example\nbob,bob,\n,c@example.org,\nd,d@example.org\n')];
    expect(rows.map((r) => [r.line, r.user_login, r.url, r.problem])).toEqual([
      [2, 'ann', 'https://a.example', undefined],
      [3, 'bob', undefined, '"bob" is not an email address'],
      [4, '', undefined, 'no user_login'],
      [5, 'd', undefined, 'has 2 field(s), the first line names 3'],
    ]);
  });

  it('refuses a password column without reading a row, and a file without the required columns', () => {
    expect(() => [...importRows('user_login,user_email,Password\nann,ann@example.org,hunter22')]).toThrow(/Passwords are never read/);
    expect(() => [...importRows('user_login,name\nann,Ann')]).toThrow(/Unknown column/);
    expect(() => [...importRows('user_login\nann')]).toThrow(/no user_email column/);
    expect(() => [...importRows('\n\n')]).toThrow(/empty/);
  });
});
