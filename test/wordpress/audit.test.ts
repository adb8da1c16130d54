import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createContext } from '../../src/config.js';
import { invoke } from '../../src/call/envelope.js';
import { runCli } from '../helpers/cli.js';
import { testSite, unique, wp } from '../helpers/site.js';

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
    expect(lines[0]).toMatchObject({ params: { name: tag }, user: testSite().username });
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

  it('a failed append is reported on stderr and in the result; the write stands; the next write is recorded', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-')), 'audit.jsonl');
    const context = createContext(testSite(), { auditLog: file });
    const [first, lost, later] = [unique('Audit 1'), unique('Audit lost'), unique('Audit 3')];
    expect((await invoke({ tool: 'create-tag', params: { name: first } }, context)).ok).toBe(true);

    // Root ignores file modes, so make the append fail for real: a directory where the log was.
    rmSync(file);
    mkdirSync(file);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let outcome: Awaited<ReturnType<typeof invoke>>;
    let said = '';
    try {
      outcome = await invoke({ tool: 'create-tag', params: { name: lost } }, context);
      said = stderr.mock.calls.map(([text]) => String(text)).join('');
    } finally {
      stderr.mockRestore();
    }
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const result = outcome.result as { id: number; audit_log_failed?: string };
    expect(result.audit_log_failed).toMatch(/not in the audit log: EISDIR/);
    expect(said).toMatch(/not in the audit log: EISDIR/);
    expect(await wp().get(`/wp/v2/tags/${result.id}`)).toMatchObject({ name: lost });

    rmdirSync(file);
    expect((await invoke({ tool: 'create-tag', params: { name: later } }, context)).ok).toBe(true);
    expect(readLines(file).map((l) => l.params.name)).toEqual([later]);
  });

  it('cms-admin audit shows the last writes in a table', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-')), 'shown.jsonl');
    const context = createContext(testSite(), { auditLog: file });
    const names = [unique('Shown 1'), unique('Shown 2'), unique('Shown 3')];
    for (const name of names) await invoke({ tool: 'create-tag', params: { name } }, context);
    await invoke({ tool: 'delete-tag', params: { id: 2_147_483_000 } }, context);

    const run = await runCli(['audit', '--audit-log', file, '--limit', '2']);
    expect(run.code).toBe(0);
    const [head, ...rows] = run.stdout.trim().split('\n').filter((line) => !/^[─ ]+$/.test(line)); // not the rule under the head
    expect(head).toMatch(/^time\s+user\s+tool\s+outcome\s+params → result$/);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\S+Z\\s+${testSite().username}\\s+create-tag\\s+ok\\s+.*${names[2]}`));
    expect(rows[1], rows[1]).toMatch(/delete-tag\s+FAILED\s+\{"id":2147483000\} → tag_not_found: No tag with id 2147483000\.$/);
    expect(rows[2]).toBe(`2 of 4 entries in ${file}`);
    expect((await runCli(['audit'], { env: { CMS_AUDIT_LOG: '' } })).code).toBe(2);
  });
});
