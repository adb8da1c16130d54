import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { invoke as invokeTool } from '../../src/call/index.js';
import { fileJournal } from '../../src/undo/journal.js';
import { runCli } from '../helpers/cli.js';
import { testSite, unique, wp } from '../helpers/site.js';

const categoriesNamed = async (name: string) =>
  (await wp().get<Array<{ id: number; name: string }>>('/wp/v2/categories', { search: name, hide_empty: false })).filter((c) => c.name === name);

/**
 * #52.9 and #52.11: one rule — `undo` and `undo --last N` take back changes that are not undos;
 * an undo is redone by its id — the same in `changes`, `undo`, and the model's undo-change; and
 * an undo of a create says it deleted what the change created.
 */
describe('undo of an undo: one rule', () => {
  it('undo deletes what a create made (plain words); `undo` again is nothing_to_undo naming the redo; `undo ID` redoes', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'undo-rule-')), 'changes.db');
    const env = { CMS_JOURNAL: file };
    const name = unique('Press');
    const made = await runCli(['invoke', 'create-category', `name=${name}`], { env });
    const id = JSON.parse(made.stdout).result.id as number;
    const created = (await fileJournal(file).entries()).at(-1)?.change_id as string;

    const undo = await runCli(['undo', '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain(`undo ${created}: deleted category ${id} '${name}' (it was created by change ${created})`);
    expect(await categoriesNamed(name)).toEqual([]);
    const undoId = (await fileJournal(file).entries()).at(-1)?.change_id as string;

    const changes = await runCli(['changes'], { env });
    expect(changes.stdout).toMatch(new RegExp(`^${undoId}\\s.*\\sundo-change\\s+by id\\s`, 'm'));
    expect(changes.stdout).toContain('`cms-admin undo ID` redoes it');

    for (const args of [['undo', '--yes'], ['undo', '--last', '1', '--yes']]) {
      const again = await runCli(args, { env });
      expect(again.code, args.join(' ')).toBe(1);
      expect(again.stderr).toContain('nothing_to_undo');
      expect(again.stderr).toContain(`To redo it: cms-admin undo ${undoId}.`);
    }
    // The model's words: the tool, not the CLI.
    const context = createContext(testSite(), { journal: fileJournal(file) });
    const tool = await invokeTool({ tool: 'undo-change', params: {} }, context);
    expect(tool).toMatchObject({ ok: false, error: { code: 'nothing_to_undo', hint: expect.stringContaining(`undo-change with change_id "${undoId}"`) } });
    expect(await categoriesNamed(name)).toEqual([]);

    const redo = await runCli(['undo', undoId, '--yes'], { env });
    expect(redo.code, redo.stderr).toBe(0);
    expect(await categoriesNamed(name)).toHaveLength(1);
  });
});
