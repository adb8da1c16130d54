import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { renderAnswer } from '../../src/cli/render/answer.js';
import { shellCompleter } from '../../src/cli/shell/complete.js';
import { toolHelp } from '../../src/cli/shell/help.js';
import { carriesSecret, loadHistory, rememberLine } from '../../src/cli/shell/history.js';
import { parseShellLine } from '../../src/cli/shell/parse.js';
import { tools } from '../../src/registry/index.js';

it('reads name=value (JSON where it parses, else text), JSON params, and @ids from the last list', () => {
  expect(parseShellLine('update-tag id=7 name="Cloud Native" slug=cloud-native')).toEqual({
    tool: 'update-tag',
    params: { id: 7, name: 'Cloud Native', slug: 'cloud-native' },
  });
  expect(parseShellLine('assign-terms-to-posts term_ids=[7] post_ids=@ids', [3, 5])).toEqual({
    tool: 'assign-terms-to-posts',
    params: { term_ids: [7], post_ids: [3, 5] },
  });
  expect(parseShellLine('x {"post_ids": "@ids"}', [9]).params).toEqual({ post_ids: [9] });
  expect(() => parseShellLine('x post_ids=@ids', [])).toThrow(/no.*list answer|none yet/);
});

it('help TOOL names each parameter, which are required, and an example line', () => {
  const help = toolHelp(tools.find((t) => t.name === 'update-tag')!, 120);
  // A term id takes its slug too (#52.1); a user id a login or email.
  expect(help).toMatch(/^id\s+id\|slug\s+yes/m);
  expect(toolHelp(tools.find((t) => t.name === 'set-user-role')!, 120)).toMatch(/^id\s+id\|login\s+yes/m);
  expect(help).toMatch(/^slug\s+string/m);
  expect(help).toContain('example: update-tag id=12');
});

it('Tab completes tool names, then the tool’s parameter names not given yet', () => {
  const complete = shellCompleter(tools);
  expect(complete('update-t')[0]).toEqual(['update-tag', 'update-term']);
  expect(complete('help merge-c')[0]).toEqual(['merge-categories']);
  expect(complete('update-tag id=3 s')[0]).toEqual(['slug=']);
  expect(complete('update-tag i')[0]).toEqual(['id=']);
});

it('history is kept 0600 across sessions, and a line giving a password is never written', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hist-')), 'cms-admin', 'shell-history');
  expect(rememberLine('list-users role=editor', file)).toBe(true);
  expect(rememberLine('update-user id=3 password="Pw-s3cret-very-long"', file)).toBe(false);
  expect(rememberLine('x {"app_password": "abcd"}', file)).toBe(false);
  expect(carriesSecret('list-app-passwords user_id=3')).toBe(false);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readFileSync(file, 'utf8')).not.toContain('s3cret');
  expect(loadHistory(file)).toEqual(['list-users role=editor']);
});

it('answers for people: a list as a table with its count and next page, an error as message and hint', () => {
  const page = {
    ok: true as const,
    result: { total: 3, items: [{ id: 1, name: 'A' }, { id: 2, name: 'B' }], next_cursor: 'abc' },
  };
  expect(renderAnswer('get-cms-tags', { limit: 2 }, page, 80)).toBe(
    'id  name\n──  ────\n1   A\n2   B\n2 of 3\nmore: get-cms-tags limit=2 cursor=abc',
  );
  const error = { ok: false as const, error: { code: 'term_exists', message: 'It exists (id 2).', hint: 'Use id 2.' } };
  expect(renderAnswer('create-category', {}, error)).toBe('✗ It exists (id 2). (term_exists)\n  hint: Use id 2.');
  const wide = { ok: true as const, result: { total: 1, items: [{ id: 1, text: 'x'.repeat(300) }], next_cursor: null } };
  for (const line of renderAnswer('t', {}, wide, 60).split('\n')) expect(line.length).toBeLessThanOrEqual(60);
});
