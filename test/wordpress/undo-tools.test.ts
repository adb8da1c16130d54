import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { findTool, reviewCall } from '../../src/call/index.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { TaxonomyToolkit } from '../../src/toolkits.js';
import { call, callIn, callOkIn, testSite, unique } from '../helpers/site.js';
import { makeCategory, readTerm } from './taxonomy/fixtures.js';
import { makeAppPassword, makeUser, readUser } from './users/helpers.js';

function journalled() {
  return createContext(testSite(), { journal: memoryJournal() });
}

describe('list-changes and undo-change', () => {
  it('list-changes pages the journal newest first, marking what is undone; undo-change asks approval saying what it restores, then undoes and redoes', async () => {
    const context = journalled();
    const cat = await makeCategory('Undo tool');
    const renamed = `${cat.name} v2`;
    await callOkIn(context, 'update-category', { id: cat.id, name: renamed });
    await callOkIn(context, 'update-category', { id: cat.id, description: 'described' });
    await callOkIn(context, 'create-tag', { name: `${cat.name} tag` });

    const first = await callOkIn(context, 'list-changes', { limit: 2 });
    expect(first.total).toBe(3);
    expect(first.items.map((i: { tool: string }) => i.tool)).toEqual(['create-tag', 'update-category']);
    expect(first.items[0]).toMatchObject({
      reversible: true,
      undone: false,
      summary: expect.stringContaining('created tag'),
    });
    const rest = await callOkIn(context, 'list-changes', { cursor: first.next_cursor });
    expect(rest.items).toEqual([
      expect.objectContaining({ summary: expect.stringContaining(`name '${cat.name}' -> '${renamed}'`) }),
    ]);
    const renameId = rest.items[0].change_id;

    const review = await reviewCall(findTool('undo-change')!, context, { change_id: renameId });
    expect(review).toMatchObject({
      approval: 'required',
      // Asked as update-category would ask it (tools/changes/undo-review.ts).
      summary: expect.stringContaining(`category "${renamed}" (id ${cat.id}): rename it to "${cat.name}"`),
    });
    const dry = await callOkIn(context, 'undo-change', { change_id: renameId, dry_run: true });
    expect(dry).toMatchObject({ dry_run: true, restored: [expect.stringContaining('name')], needs_approval: true });
    expect((await readTerm('categories', cat.id))?.name).toBe(renamed);

    const undone = await callOkIn(context, 'undo-change', { change_id: renameId });
    expect(undone).toMatchObject({ change_id: renameId, conflicts: [], undo_change_id: expect.any(String) });
    // The rename is undone, the later description change stays.
    expect(await readTerm('categories', cat.id)).toMatchObject({ name: cat.name, description: 'described' });
    const listed = await callOkIn(context, 'list-changes');
    expect(listed.items[0]).toMatchObject({ tool: 'undo-change', undoes: renameId });
    expect(listed.items.find((i: { change_id: string }) => i.change_id === renameId)).toMatchObject({ undone: true });

    const again = await callIn(context, 'undo-change', { change_id: renameId });
    expect(again).toMatchObject({ ok: false, error: { code: 'already_undone' } });
    await callOkIn(context, 'undo-change', { change_id: undone.undo_change_id });
    expect((await readTerm('categories', cat.id))?.name).toBe(renamed);
  });

  it('library use: a toolkit given a journal records its writes; undoChange takes them back', async () => {
    const journal = memoryJournal();
    const site = testSite();
    const tools = new TaxonomyToolkit({ site, journal, approvals: 'none' }).getTools();
    const name = unique('Toolkit undo');
    const made = JSON.parse(await tools.find((t) => t.name === 'create-tag')!.invoke({ name }));
    expect((await journal.entries()).map((e) => e.tool)).toEqual(['create-tag']);
    const report = await undoChange(createContext(site, { journal }), journal);
    expect(report.restored).toEqual([`tag ${made.id} '${name}' (deleted)`]);
    expect(await readTerm('tags', made.id)).toBeUndefined();
  });

  it('without a journal both tools say so; an unknown id is change_not_found', async () => {
    expect(await call('list-changes')).toMatchObject({ ok: false, error: { code: 'journal_off' } });
    expect(await call('undo-change', {})).toMatchObject({ ok: false, error: { code: 'journal_off' } });
    const context = journalled();
    expect(await callIn(context, 'undo-change', {})).toMatchObject({ ok: false, error: { code: 'nothing_to_undo' } });
    expect(await callIn(context, 'undo-change', { change_id: 'cnope' })).toMatchObject({
      ok: false,
      error: { code: 'change_not_found' },
    });
  });
});

describe('one journal shared by several accounts (MCP over HTTP with sign-in)', () => {
  it('each account lists and undoes only its own changes: "undo that" never takes back another person’s change', async () => {
    const journal = memoryJournal();
    const admin = createContext(testSite(), { journal });
    const who = await makeUser({ prefix: 'undo-editor', roles: ['editor'] });
    const editor = createContext(
      { ...testSite(), username: who.username, appPassword: await makeAppPassword(who.id) },
      { journal },
    );
    const cat = await makeCategory('Shared journal');
    await callOkIn(editor, 'update-category', { id: cat.id, description: 'by the editor' });
    // The administrator's change comes last, and names an email the editor cannot read in WordPress.
    const member = await makeUser({ prefix: 'undo-member' });
    await callOkIn(admin, 'update-user', { id: member.id, email: `changed-${member.email}` });

    const editorList = await callOkIn(editor, 'list-changes');
    expect(editorList.items.map((i: { tool: string }) => i.tool)).toEqual(['update-category']);
    expect(JSON.stringify(editorList)).not.toContain(member.email);
    const adminList = await callOkIn(admin, 'list-changes');
    expect(adminList.items.map((i: { tool: string }) => i.tool)).toEqual(['update-user']);

    // The editor's "undo that" undoes the editor's change, not the administrator's later one.
    const undone = await callOkIn(editor, 'undo-change', {});
    expect(undone.change_id).toBe(editorList.items[0].change_id);
    expect((await readTerm('categories', cat.id))?.description).toBe('');
    expect((await readUser(member.id)).email).toBe(`changed-${member.email}`);
    // Naming the administrator's change does not reach it either.
    const refused = await callIn(editor, 'undo-change', { change_id: adminList.items[0].change_id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'change_not_found' } });
    expect((await readUser(member.id)).email).toBe(`changed-${member.email}`);
  });
});
