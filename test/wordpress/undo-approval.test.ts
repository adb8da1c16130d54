import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { ChangesToolkit, UserToolkit } from '../../src/toolkits.js';
import type { ApprovalRequest, Approver } from '../../src/call/index.js';
import { fileJournal, memoryJournal, type ChangeJournal } from '../../src/undo/journal.js';
import { runCli } from '../helpers/cli.js';
import { callIn, callOkIn, testSite, unique, wp } from '../helpers/site.js';
import { makeUser, newIdentity, newPassword, readUser } from './users/helpers.js';

/**
 * Issue #33, findings 2 and 3: the change an undo's question names is the change that runs,
 * undos of one journal run one at a time, and the question says what the forward tool would
 * say for the same write (read from what will be written, not from the journal's words).
 */
function journalled(journal: ChangeJournal = memoryJournal()) {
  return { context: createContext(testSite(), { journal }), journal };
}

/** A user demoted administrator → subscriber, then a category's description changed: the last two changes. */
async function demotionThenCategory(journal?: ChangeJournal) {
  const { context, journal: j } = journalled(journal);
  const user = await makeUser({ prefix: 'ghopper', roles: ['administrator'] });
  const cat = await wp().post<{ id: number; name: string }>('/wp/v2/categories', {
    name: unique('Local'),
    description: 'before',
  });
  await callOkIn(context, 'set-user-role', { id: user.id, role: 'subscriber' });
  await callOkIn(context, 'update-category', { id: cat.id, description: 'after' });
  const [demotion, category] = (await j.entries()).slice(-2);
  return { context, journal: j, user, cat, demotion: demotion!, category: category! };
}

/** Two undo-change calls at once, as a model's parallel tool calls reach the LangChain tool. */
async function twoUndosAtOnce(context: ReturnType<typeof journalled>['context'], approvals: Approver) {
  const undo = new ChangesToolkit({ context, approvals }).getTools().find((t) => t.name === 'undo-change')!;
  const answers = await Promise.all([undo.invoke({}), undo.invoke({})]);
  return answers.map((a) => JSON.parse(String(a)) as Record<string, any>);
}

/** The undo-change tool with an approver that records each question and approves none. */
function lookingOnly(context: ReturnType<typeof journalled>['context']) {
  const questions: ApprovalRequest[] = [];
  const approvals: Approver = async (request) => {
    questions.push(request);
    return { approved: false, reason: 'just looking' };
  };
  const undo = new ChangesToolkit({ context, approvals }).getTools().find((t) => t.name === 'undo-change')!;
  return { questions, undo };
}

describe('undo approval', () => {
  it('two undo-change calls at once: each question names the change that runs; the demotion is not undone behind a question about a category', async () => {
    const { context, journal, user, cat, demotion, category } = await demotionThenCategory();
    const questions: ApprovalRequest[] = [];
    const onlyCategories: Approver = async (request) => {
      questions.push(request);
      return /category/.test(request.summary) ? { approved: true } : { approved: false, reason: 'not a category' };
    };
    const answers = await twoUndosAtOnce(context, onlyCategories);
    expect(questions).toHaveLength(2);
    // Each question names its change by id, and that id is what ran (or was refused as already undone).
    for (const q of questions) {
      expect(q.args.change_id).toBe(category.change_id);
      expect(q.summary).toContain(category.change_id);
    }
    const ran = answers.filter((a) => !a.error);
    expect(ran.map((a) => a.change_id)).toEqual([category.change_id]);
    expect(answers.filter((a) => a.error).map((a) => a.error.code)).toEqual(['already_undone']);
    // Read back: the user stays subscriber; the category's description is back.
    expect((await readUser(user.id)).roles).toEqual(['subscriber']);
    expect((await wp().get<{ description: string }>(`/wp/v2/categories/${cat.id}`)).description).toBe('before');
    const undos = (await journal.entries()).filter((e) => e.undoes);
    expect(undos.map((e) => e.undoes)).toEqual([category.change_id]);
    expect(undos.some((e) => e.undoes === demotion.change_id)).toBe(false);
  });

  it('with an instant approver, two undos at once never undo the same change twice', async () => {
    const { context, journal, category } = await demotionThenCategory();
    const answers = await twoUndosAtOnce(context, async () => ({ approved: true }));
    const undos = (await journal.entries()).filter((e) => e.undoes);
    expect(undos.filter((e) => e.undoes === category.change_id)).toHaveLength(1);
    expect(answers.map((a) => a.error?.code ?? a.change_id).sort()).toEqual(['already_undone', category.change_id].sort());
  });

  it('undo of a demotion asks in set-user-role\'s words, naming the power it gives back: "give … the role administrator (manage_options, promote_users, edit_users, …) (was: subscriber)"; the dry run says the same', async () => {
    const { context, user, demotion } = await demotionThenCategory();
    const { questions, undo } = lookingOnly(context);
    await undo.invoke({ change_id: demotion.change_id });
    // The very words set-user-role asks with for the same change (#48, finding 7).
    const forward: ApprovalRequest[] = [];
    const looking: Approver = async (request) => {
      forward.push(request);
      return { approved: false, reason: 'just looking' };
    };
    const setRole = new UserToolkit({ context, approvals: looking }).getTools().find((t) => t.name === 'set-user-role')!;
    await setRole.invoke({ id: user.id, role: 'administrator' });
    expect(forward[0]!.summary).toMatch(
      new RegExp(`^give ${user.username} the role administrator \\(manage_options, promote_users, edit_users, …\\) \\(was: subscriber\\); it grants power: change every site setting \\(manage_options\\); give accounts roles \\(promote_users\\);`),
    );
    expect(questions[0]!.summary).toContain(forward[0]!.summary);
    expect(questions[0]!.summary).not.toContain('back for');
    const dry = JSON.parse(String(await undo.invoke({ change_id: demotion.change_id, dry_run: true })));
    expect(dry.would).toBe(questions[0]!.summary);
    expect((await readUser(user.id)).roles).toEqual(['subscriber']);
  });

  it('an entry edited in the journal file (previous roles: administrator): the question and the CLI dry run say administrator', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'undo-edit-')), 'changes.db');
    const { context } = journalled(fileJournal(file));
    const user = await makeUser({ prefix: 'edited', roles: ['editor'] });
    await callOkIn(context, 'set-user-role', { id: user.id, role: 'subscriber' });
    // The attacker's edit: the summary still says "was: editor", the state says administrator.
    const store = fileJournal(file);
    const entry = (await store.entries())[0] as any;
    entry.before.users[String(user.id)].roles = ['administrator'];
    entry.tool = "update-category): restore category 4 'Local' (description";
    await store.update?.(entry);
    expect(entry.summary).toContain('was: editor');

    const review = await callIn(context, 'undo-change', { change_id: entry.change_id, dry_run: true });
    expect(review.ok && (review.result as { would: string }).would).toContain(
      `give ${user.username} the role administrator (manage_options`,
    );
    const dry = await runCli(['undo', entry.change_id, '--dry-run'], { env: { CMS_JOURNAL: file } });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`give ${user.username} the role administrator (manage_options`);
    expect(dry.stdout).not.toContain('(roles)');
    // The entry's words are not the question's: its tool shows only as a name's characters.
    expect(dry.stdout).not.toContain("restore category 4 'Local'");
    expect((await readUser(user.id)).roles).toEqual(['subscriber']);
  });

  it('undo of a disable says the account will be enabled, as enable-user does', async () => {
    const { context } = journalled();
    const user = await makeUser({ prefix: 'undo_dis', roles: ['author'] });
    const disabled = await callIn(context, 'disable-user', { id: user.id, reason: 'test' });
    expect(disabled.ok).toBe(true);
    const dry = await callIn(context, 'undo-change', { dry_run: true });
    expect(dry.ok && (dry.result as { would: string }).would).toContain(`enable ${user.username}'s account (roles: author)`);
    expect((await readUser(user.id)).cms_disabled).toBe(true);
  });

  it('a forced undo of create-user asks as delete-user does: the posts it owns and "cannot be undone"', async () => {
    const { context } = journalled();
    const made = await callOkIn(context, 'create-user', { ...newIdentity('undo_cu'), password: newPassword(), role: 'author' });
    await wp().post('/wp/v2/posts', { title: unique('Owned'), status: 'publish', author: made.id });
    await wp().post('/wp/v2/posts', { title: unique('Owned'), status: 'draft', author: made.id });
    const { questions, undo } = lookingOnly(context);
    await undo.invoke({ force: true });
    const me = await context.client.connect();
    const question = questions[0]!.summary;
    expect(question).toContain(`delete ${made.username}'s account (roles: author) and give 2 item(s)`);
    expect(question).toContain(`to ${me.username}; this cannot be undone`);
    expect(await readUser(made.id)).toMatchObject({ id: made.id });
  });
  it('undo of a merge says what it moves back: sources recreated as create-category says it, "category … back on N posts"', async () => {
    const { context } = journalled();
    const [news, tech, target] = await Promise.all(
      ['News', 'Tech', 'Stories'].map((n) => wp().post<{ id: number; name: string }>('/wp/v2/categories', { name: unique(n) })),
    );
    const posts = await Promise.all(
      [[news!.id], [news!.id, tech!.id], [tech!.id]].map((categories) =>
        wp().post<{ id: number }>('/wp/v2/posts', { title: unique('Merged'), status: 'publish', categories }),
      ),
    );
    await callOkIn(context, 'merge-categories', { source_ids: [news!.id, tech!.id], target_id: target!.id, delete_sources: true });
    const dry = await callIn(context, 'undo-change', { dry_run: true });
    const would = dry.ok ? (dry.result as { would: string }).would : JSON.stringify(dry.error);
    expect(would).toContain(`create the category "${news!.name}" at top level`);
    expect(would).toContain(`category '${news!.name}' back on 2 posts`);
    expect(would).toContain(`category '${tech!.name}' back on 2 posts`);
    expect(would).toContain(`category '${target!.name}' taken off 3 posts`);
    expect((await wp().get<{ categories: number[] }>(`/wp/v2/posts/${posts[0]!.id}`)).categories).toEqual([target!.id]);
  });
});
