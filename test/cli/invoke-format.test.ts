import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { unique, wp } from '../helpers/site.js';

/** RFC 4180 as a spreadsheet reads it: quoted cells, "" for a quote, commas and newlines inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

type Tag = { id: number; name: string; count: number };

/** #52.2: list answers as `wp … list --format … --fields …`, read back against WordPress. */
describe('cms-admin invoke --format / --fields', () => {
  it('csv (names with a comma and a quote) and ids parse back to what WordPress holds; json and count agree', async () => {
    const word = unique('Fmt').replace(/\s+/g, '');
    const names = [`${word} plain`, `${word}, with comma`, `${word} "quoted"`];
    for (const name of names) await wp().post('/wp/v2/tags', { name });
    const tags = (await wp().get<Tag[]>('/wp/v2/tags', { search: word, per_page: 100, hide_empty: false })).sort((a, b) => a.id - b.id);
    expect(tags).toHaveLength(3);

    const csv = await runCli(['invoke', 'get-cms-tags', `search=${word}`, '--format', 'csv', '--fields', 'id,name,count']);
    expect(csv.code, csv.stderr).toBe(0);
    const [head, ...rows] = parseCsv(csv.stdout.trimEnd());
    expect(head).toEqual(['id', 'name', 'count']);
    expect(rows.map(([id, name, count]) => ({ id: Number(id), name, count: Number(count) })).sort((a, b) => a.id - b.id)).toEqual(
      tags.map(({ id, name, count }) => ({ id, name, count })),
    );

    const ids = await runCli(['invoke', 'get-cms-tags', `search=${word}`, '--format', 'ids']);
    expect(ids.stdout.trim().split(' ').map(Number).sort((a, b) => a - b)).toEqual(tags.map((t) => t.id));

    const json = await runCli(['invoke', 'get-cms-tags', `search=${word}`, '--format', 'json', '--fields', 'name,id']);
    const items = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(items.map((i) => Object.keys(i))).toEqual([['name', 'id'], ['name', 'id'], ['name', 'id']]);

    const count = await runCli(['invoke', 'get-cms-tags', `search=${word}`, 'limit=1', '--format', 'count']);
    expect(count.stdout.trim()).toBe('3');

    const table = await runCli(['invoke', 'get-cms-tags', `search=${word}`, '--format', 'table', '--fields', 'id,name']);
    expect(table.stdout.split('\n')[0]).toMatch(/^id\s+name$/);
    expect(table.stdout).toContain(`${word}, with comma`);
  });

  it('a field the items do not have, or a format not offered, is exit 2 naming what there is', async () => {
    const field = await runCli(['invoke', 'get-cms-tags', 'limit=2', '--fields', 'id,colour']);
    expect(field.code).toBe(2);
    expect(field.stderr).toMatch(/no field "colour".*they have id, name/);
    const format = await runCli(['invoke', 'get-cms-tags', '--format', 'yaml']);
    expect(format.code).toBe(2);
    expect(JSON.parse(format.stdout).error.message).toMatch(/--format takes table, json, csv, ids, count/);
  });
});
