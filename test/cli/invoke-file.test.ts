import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { unique, wp } from '../helpers/site.js';

/** `invoke --file`: a param's text from a file (#50), the CSV of import-users. */
describe('invoke --file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'invoke-file-'));

  it('fills import-users’ csv from the file; a dry run answers per row and writes nothing', async () => {
    const login = unique('clifile').toLowerCase().replace(/[^a-z0-9]+/g, '_');
    const file = join(dir, 'people.csv');
    writeFileSync(file, `user_login,user_email,role\n${login},${login}@example.org,author\n${login}_x,not-an-email,author\n`);
    const run = await runCli(['invoke', '--file', file, '--dry-run', JSON.stringify({ tool: 'import-users' })]);
    expect(run.code, run.stderr).toBe(0);
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toMatchObject({ ok: true, result: { dry_run: true, counts: { create: 1, error: 1 } } });
    expect(outcome.result.rows).toContainEqual(expect.objectContaining({ line: 3, result: 'error', reason: '"not-an-email" is not an email address' }));
    expect(await wp().get<unknown[]>('/wp/v2/users', { search: login, context: 'edit', _fields: 'id' })).toEqual([]);

    const named = await runCli(['invoke', '--file', `csv=${file}`, '--dry-run', JSON.stringify({ tool: 'import-users' })]);
    expect(JSON.parse(named.stdout)).toMatchObject({ ok: true, result: { counts: { create: 1 } } });
  });

  it('says what is wrong with the flag, exit 2, before reaching the site', async () => {
    const missing = await runCli(['invoke', '--file', join(dir, 'nope.csv'), JSON.stringify({ tool: 'import-users' })]);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, error: { code: 'invalid_config', message: expect.stringContaining('ENOENT') } });
    const none = await runCli(['invoke', '--file', join(dir, 'nope.csv'), JSON.stringify({ tool: 'create-tag', params: { name: 'x' } })]);
    expect(JSON.parse(none.stdout)).toMatchObject({ ok: false, error: { code: 'invalid_config', message: expect.stringContaining('PARAM=PATH') } });
  });
});
