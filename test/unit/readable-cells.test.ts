import { expect, it } from 'vitest';
import { describeTool } from '../../src/adapters/json-schema.js';
import { cellText } from '../../src/cli/render/values.js';
import { toolHelp } from '../../src/cli/shell/help.js';
import { tools } from '../../src/registry/index.js';

// #60.6: a cell is read by its value's shape, never per tool; `help TOOL` says what every param is.
it('nested values read as words: named objects, pairs, lists of objects; dates to the minute', () => {
  const terms = [
    { id: 2, name: 'News', slug: 'news', parent: 0, posts: 0 },
    { id: 128, name: 'News', slug: 'news-tech', parent: 5, posts: 3 },
  ];
  expect(cellText(terms)).toBe('News (id 2, slug news, parent 0, posts 0); News (id 128, slug news-tech, parent 5, posts 3)');
  expect(cellText({ main: 'administrator', sports: 'editor,author' })).toBe('main: administrator, sports: editor,author');
  expect(cellText({ main: ['editor', 'author'], news: [] })).toBe('main: editor/author');
  expect(cellText(['a', 'b'])).toBe('a, b');
  expect(cellText('2024-03-29T11:30:00')).toBe('2024-03-29 11:30');
  expect(cellText({ a: { b: { c: { d: 1 } } } })).toBe('a: b: c: {"d":1}');
  expect(cellText(terms, 30)).toHaveLength(30);
});

it('every parameter of every tool has words in help’s "about" column', () => {
  for (const tool of tools) {
    const params = Object.keys((describeTool(tool).inputSchema as { properties?: object }).properties ?? {});
    const lines = toolHelp(tool, 400).split('\n');
    const about = lines[1]?.indexOf('about') ?? -1;
    expect(about, tool.name).toBeGreaterThan(0);
    for (const row of lines.slice(3, 3 + params.length)) expect(row.slice(about).trim(), `${tool.name}: ${row}`).not.toBe('');
  }
});
