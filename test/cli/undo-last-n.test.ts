import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { fileJournal } from '../../src/undo/journal.js';
import { runCli } from '../helpers/cli.js';
import { callOkIn, testSite, unique, wp } from '../helpers/site.js';
import { readTerm } from '../wordpress/taxonomy/fixtures.js';
import { makeUser } from '../wordpress/users/helpers.js';

/**
 * #36: `cms-admin undo --last N` counts the last N changes, undoes those it can, names those it
 * cannot and why, and exits 0 only when it did all it was asked (1 otherwise), dry run included.
 */
describe('cms-admin undo --last N', () => {
  it('undoes the two it can of the last three, names the one it cannot (and why), exits 1; all three irreversible: exit 1', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'undo-last-')), 'changes.jsonl');
    const context = createContext(testSite(), { journal: fileJournal(file) });
    const env = { CMS_JOURNAL: file };
    const user = await makeUser({ roles: ['author'] });
    const cat = await wp().post<{ id: number; name: string }>('/wp/v2/categories', { name: unique('Last N') });
    await callOkIn(context, 'update-category', { id: cat.id, name: `${cat.name} 2` });
    await callOkIn(context, 'log-out-user', { user_id: user.id });
    await callOkIn(context, 'set-user-role', { id: user.id, role: 'editor' });
    const ids = (await fileJournal(file).entries()).map((e) => e.change_id);

    const dry = await runCli(['undo', '--last', '3', '--dry-run'], { env });
    expect(dry.stdout).toContain('would undo 2 of the last 3 changes');
    expect(dry.stdout).toContain(`${ids[1]} (log-out-user) cannot be undone: ended sessions cannot be restored`);
    expect(dry.code).toBe(1);
    expect((await readTerm('categories', cat.id))?.name).toBe(`${cat.name} 2`);

    const run = await runCli(['undo', '--last', '3', '--yes'], { env });
    expect(run.stdout).toContain('undid 2 of the last 3 changes');
    expect(run.stdout).toContain(`${ids[1]} (log-out-user) cannot be undone: ended sessions cannot be restored`);
    expect(run.code).toBe(1);
    expect((await readTerm('categories', cat.id))?.name).toBe(cat.name);
    expect((await wp().get<{ roles: string[] }>(`/wp/v2/users/${user.id}`, { context: 'edit' })).roles).toEqual(['author']);

    // Three irreversible changes: nothing restored is not a success.
    for (let i = 0; i < 3; i++) await callOkIn(context, 'log-out-user', { user_id: user.id });
    const none = await runCli(['undo', '--last', '3', '--dry-run'], { env });
    expect(none.stdout).toContain('would undo 0 of the last 3 changes');
    expect(none.code).toBe(1);
  });

  it('exit 0 when all of the last N are undone', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'undo-last-')), 'changes.jsonl');
    const context = createContext(testSite(), { journal: fileJournal(file) });
    const cat = await wp().post<{ id: number; name: string }>('/wp/v2/categories', { name: unique('Last all') });
    await callOkIn(context, 'update-category', { id: cat.id, name: `${cat.name} 2` });
    await callOkIn(context, 'update-category', { id: cat.id, description: 'said' });
    const run = await runCli(['undo', '--last', '2', '--yes'], { env: { CMS_JOURNAL: file } });
    expect(run.stdout).toContain('undid 2 of the last 2 changes');
    expect(run.code).toBe(0);
    expect(await readTerm('categories', cat.id)).toMatchObject({ name: cat.name, description: '' });
  });
});
