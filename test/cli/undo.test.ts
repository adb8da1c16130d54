import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultStorePath } from '../../src/cli/journal-path.js';
import { siteKey } from '../../src/undo/site-key.js';
import { fileJournal } from '../../src/undo/journal.js';
import { runCli } from '../helpers/cli.js';
import { recordSecret } from '../helpers/output-log.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { readTerm } from '../wordpress/taxonomy/fixtures.js';

const invoke = (tool: string, params: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  runCli(['invoke', JSON.stringify({ tool, params })], { env });

describe('cms-admin changes and undo', () => {
  it('invoke journals by default in the state folder, per site, 0600; CMS_JOURNAL=off turns it off', async () => {
    const file = defaultStorePath();
    const name = unique('CLI journal');
    const made = JSON.parse((await invoke('create-tag', { name })).stdout).result;
    expect(file.startsWith(process.env.XDG_STATE_HOME!)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await fileJournal(file).entries()).at(-1)).toMatchObject({
      tool: 'create-tag',
      summary: `created tag ${made.id} '${name}'`,
      site: siteKey(testSite().url),
      status: 'done',
    });
    const count = (await fileJournal(file).entries()).length;
    await invoke('create-tag', { name: unique('CLI off') }, { CMS_JOURNAL: 'off' });
    expect(await fileJournal(file).entries()).toHaveLength(count);
  });

  it('changes lists the last changes; undo asks (refused without a terminal), --dry-run changes nothing, --yes undoes, its id redoes', async () => {
    const journal = path.join(mkdtempSync(path.join(tmpdir(), 'cli-undo-')), 'changes.jsonl');
    const env = { CMS_JOURNAL: journal };
    const name = unique('CLI undo');
    const made = JSON.parse((await invoke('create-category', { name }, env)).stdout).result;
    await invoke('update-category', { id: made.id, name: `${name} 2` }, env);

    const listed = await runCli(['changes', '--limit', '5'], { env });
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n').filter((line) => !/^[─ ]+$/.test(line)); // not the rule under the head
    expect(lines[0]).toMatch(/^change_id\s+when\s+user\s+tool\s+undoable\s+summary$/);
    expect(lines[2]).toContain(`update-category`);
    expect(lines[2]).toContain(`changed category ${made.id}: name '${name}' -> '${name} 2'`);
    expect(lines.at(-1)).toBe(`2 of 2 changes in ${journal}`);

    const refused = await runCli(['undo'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('needs approval');
    const dry = await runCli(['undo', '--dry-run'], { env });
    expect(dry.stdout).toContain(`category "${name} 2" (id ${made.id}): rename it to "${name}"`);
    expect((await readTerm('categories', made.id))?.name).toBe(`${name} 2`);

    const done = await runCli(['undo', '--yes', '--json'], { env });
    expect(done.code).toBe(0);
    const [report] = JSON.parse(done.stdout);
    expect(report.restored).toEqual([`category ${made.id} '${name}'`]);
    expect((await readTerm('categories', made.id))?.name).toBe(name);
    const redo = await runCli(['undo', report.undo_change_id, '--yes'], { env });
    expect(redo.code).toBe(0);
    expect((await readTerm('categories', made.id))?.name).toBe(`${name} 2`);

    // --last 2: the rename is not undone any more (redone), so the rename and the create.
    const both = await runCli(['undo', '--last', '2', '--yes', '--json'], { env });
    expect(both.code).toBe(0);
    expect(JSON.parse(both.stdout).map((r: { restored: string[] }) => r.restored.length)).toEqual([1, 1]);
    expect(await readTerm('categories', made.id)).toBeUndefined();
    const table = (await runCli(['changes'], { env })).stdout;
    expect(table.match(/undone/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('changes --journal FILE reads that file with no site configured (the operator reading a copied journal)', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'cli-changes-'));
    const journal = path.join(folder, 'changes.jsonl');
    const name = unique('Copied journal');
    await invoke('create-tag', { name }, { CMS_JOURNAL: journal });
    // No CMS_URL and an empty sandbox home: no site to be found.
    const run = await runCli(['changes', '--journal', journal], {
      env: { CMS_URL: undefined, CMS_USERNAME: undefined, CMS_APP_PASSWORD: undefined, CMS_SANDBOX_HOME: folder },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`'${name}'`);
  });

  it('undo --last N --dry-run over a change that cannot be undone says what it would do, not "restored"', async () => {
    const journal = path.join(mkdtempSync(path.join(tmpdir(), 'cli-undo-')), 'changes.jsonl');
    const env = { CMS_JOURNAL: journal };
    const username = unique('cliundo').toLowerCase().replace(/[^a-z0-9]/g, '');
    const password = `${randomBytes(12).toString('hex')}Aa1!`;
    recordSecret(password);
    const { id } = await wp().post<{ id: number }>('/wp/v2/users', { username, email: `${username}@example.com`, password });
    const reset = await invoke('reset-user-password', { id, delivery: 'email' }, env);
    expect(reset.code, reset.stdout).toBe(0);
    const dry = await runCli(['undo', '--last', '1', '--dry-run'], { env });
    // It would undo none of the one asked for: not a success (#36).
    expect(dry.code, dry.stderr).toBe(1);
    expect(dry.stdout).toContain('would undo 0 of the last 1 changes');
    expect(dry.stdout).toContain('cannot be undone');
    expect(dry.stdout).toContain(': restore nothing');
    expect(dry.stdout).not.toContain('restored');
  });
});

