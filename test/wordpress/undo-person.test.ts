import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type ApprovalRequest, type Approver, decideCall, findTool, reviewCall } from '../../src/call/index.js';
import { slashUndo as runSlashUndo } from '../../src/cli/undo/undo-command.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { callOkIn, testSite, unique, wp } from '../helpers/site.js';
import { makePosts } from './taxonomy/fixtures.js';
import { makeUser } from './users/helpers.js';

/**
 * #36: undo as a person means it. `/undo` that meets a last change no undo can take back points
 * to the most recent one that can (by id); the undo question says what each change will
 * become, in plain words.
 */
const journalled = () => createContext(testSite(), { journal: memoryJournal() });

/** `/undo` as the chat and the tool shell run it, and the undo-change decision behind it (its error's details). */
async function slashUndo(context: ReturnType<typeof journalled>) {
  const asked: ApprovalRequest[] = [];
  const approver: Approver = async (request) => {
    asked.push(request);
    return { approved: true };
  };
  const decision = await decideCall(findTool('undo-change')!, context, {}, approver);
  const said = await runSlashUndo(context, {}, approver);
  return { decision, said, asked };
}

describe('undo as a person means it', () => {
  it('/undo meeting a change that cannot be undone points to the most recent one that can, by id', async () => {
    const context = journalled();
    const alice = await makeUser({ roles: ['editor'] });
    const roleChange = await callOkIn(context, 'set-user-role', { id: alice.id, role: 'author' });
    expect(roleChange).toBeTruthy();
    await callOkIn(context, 'log-out-user', { user_id: alice.id });
    const [, reversible] = (await callOkIn(context, 'list-changes')).items as Array<{ change_id: string; tool: string }>;
    expect(reversible?.tool).toBe('set-user-role');

    const { decision, said, asked } = await slashUndo(context);
    expect(asked).toEqual([]);
    expect(decision).toMatchObject({
      ok: false,
      error: {
        code: 'change_not_reversible',
        message: expect.stringContaining(`most recent change that can be undone is ${reversible!.change_id}`),
        hint: expect.stringContaining(`/undo ${reversible!.change_id}`),
        details: { undoable_change_id: reversible!.change_id },
      },
    });
    expect(said).toContain(`Not undone: `);
    expect(said).toContain(reversible!.change_id);
    // Nothing was undone: alice is still an author.
    expect((await wp().get<{ roles: string[] }>(`/wp/v2/users/${alice.id}`, { context: 'edit' })).roles).toEqual(['author']);
  });

  it('the question says what each change will become: the role given back, in set-user-role\'s words (was: …)', async () => {
    const context = journalled();
    const alice = await makeUser({ roles: ['editor'] });
    await callOkIn(context, 'set-user-role', { id: alice.id, role: 'administrator' });
    const review = await reviewCall(findTool('undo-change')!, context, {});
    expect(review).toMatchObject({
      approval: 'required',
      summary: expect.stringContaining(`give ${alice.username} the role editor (`),
    });
    expect(review).toMatchObject({
      summary: expect.stringMatching(/\(was: administrator\)$/),
    });
  });

  it('the question says what each change will become: a category back on its posts', async () => {
    const context = journalled();
    const [news, target] = await Promise.all(
      ['News', 'Target'].map((n) => wp().post<{ id: number; name: string }>('/wp/v2/categories', { name: unique(n) })),
    );
    const posts = await makePosts(Array.from({ length: 12 }, () => ({ categories: [news!.id] })));
    await callOkIn(context, 'merge-categories', { source_ids: [news!.id], target_id: target!.id });
    const review = await reviewCall(findTool('undo-change')!, context, {});
    expect(review).toMatchObject({ approval: 'required' });
    const summary = (review as { summary: string }).summary;
    expect(summary).toContain(`category '${news!.name}' back on 12 posts`);
    expect(summary).toContain(`category '${target!.name}' taken off 12 posts`);
    expect(summary).not.toMatch(/post \d+, post \d+/);
    expect(posts).toHaveLength(12);
  });

  it('the question counts posts coming back out of the Trash instead of listing "post 31, post 34 …"', async () => {
    const context = journalled();
    const bob = await makeUser({ roles: ['author'] });
    for (const status of ['publish', 'publish', 'draft'])
      await wp().post('/wp/v2/posts', { title: unique('Trash back'), status, author: bob.id });
    await callOkIn(context, 'delete-user', { id: bob.id, reassign_to: null, delete_content: true });
    const review = await reviewCall(findTool('undo-change')!, context, {});
    const summary = (review as { summary: string }).summary;
    expect(summary).toContain('3 posts back out of the Trash (publish 2, draft 1)');
    expect(summary).not.toMatch(/post \d+/);
  });
});
