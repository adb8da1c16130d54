import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { invoke } from '../../src/envelope.js';
import { runCli } from '../helpers/cli.js';
import { testSite, unique } from '../helpers/site.js';

const readLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('audit log', () => {
  it('records every write (done or refused) with secrets masked, and no reads', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-')), 'audit.jsonl');
    const context = createContext(testSite(), { auditLog: file });
    const tag = unique('Audit tag');
    const login = unique('audit').replace(/\W/g, '_').toLowerCase();
    const password = `Audit-${Date.now().toString(36)}-Secret-Pass`;

    expect((await invoke({ tool: 'create-tag', params: { name: tag } }, context)).ok).toBe(true);
    expect((await invoke({ tool: 'get-cms-tags' }, context)).ok).toBe(true);
    expect((await invoke({ tool: 'create-tag', params: { name: tag } }, context)).ok).toBe(false);
    const user = await invoke(
      { tool: 'create-user', params: { username: login, email: `${login}@example.com`, password } },
      context,
    );
    expect(user.ok).toBe(true);
    // Rejected before running: not a write, not logged.
    expect((await invoke({ tool: 'create-tag', params: {} }, context)).ok).toBe(false);

    const lines = readLines(file);
    expect(lines.map((l) => [l.tool, l.ok])).toEqual([
      ['create-tag', true],
      ['create-tag', false],
      ['create-user', true],
    ]);
    expect(lines[0]).toMatchObject({ params: { name: tag } });
    expect(lines[0].summary).toContain('id=');
    expect(lines[1].summary).toContain('term_exists');
    expect(lines[2].params).toMatchObject({ username: login, password: '[REDACTED]' });
    for (const line of lines) expect(Date.parse(line.time)).not.toBeNaN();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(password);
    expect(text).not.toContain(testSite().appPassword);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('cms-admin invoke --audit-log appends to the chosen file', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-')), 'cli.jsonl');
    const name = unique('Audit CLI');
    const run = await runCli([
      'invoke',
      '--audit-log',
      file,
      JSON.stringify({ tool: 'create-category', params: { name } }),
    ]);
    expect(run.code).toBe(0);
    expect(readLines(file)).toEqual([expect.objectContaining({ tool: 'create-category', ok: true, params: { name } })]);
  });
});
