import { describe, expect, it } from 'vitest';
import { type ApprovalRequest, decideCall, findTool, reviewCall } from '../../src/call/index.js';
import { testContext, unique, wp } from '../helpers/site.js';
import { makeUser } from './users/helpers.js';

/**
 * #36: everything that can be checked before asking a person is checked before the question,
 * through the one approval path every surface uses (decideCall): a call that would be refused
 * is refused without asking, and the question says what will happen (merge: sources kept or deleted).
 */
async function decide(tool: string, params: Record<string, unknown>) {
  const asked: ApprovalRequest[] = [];
  const decision = await decideCall(findTool(tool)!, testContext(), params, async (request) => {
    asked.push(request);
    return { approved: true };
  });
  return { decision, asked };
}

const name = () => unique('qa').replace(/\s+/g, '').toLowerCase();

describe('questions only after checks', () => {
  it('create-user with a weak password: refused before the question, nothing created', async () => {
    const username = name();
    const { decision, asked } = await decide('create-user', {
      username,
      email: `${username}@example.com`,
      password: 'short',
      role: 'administrator',
    });
    expect(asked).toEqual([]);
    expect(decision).toMatchObject({ ok: false, error: { code: 'weak_password' } });
    expect(await wp().get<unknown[]>('/wp/v2/users', { search: username, context: 'edit' })).toEqual([]);
  });

  it('create-user with a username or email already taken: refused before the question', async () => {
    const taken = await makeUser();
    for (const [params, code] of [
      [{ username: taken.username, email: `${name()}@example.com` }, 'user_exists'],
      [{ username: name(), email: taken.email }, 'email_in_use'],
    ] as const) {
      const { decision, asked } = await decide('create-user', { ...params, password: `${unique('Pw')}-Long!x`, role: 'editor' });
      expect(asked, code).toEqual([]);
      expect(decision, code).toMatchObject({ ok: false, error: { code, details: { id: taken.id } } });
    }
  });

  it('update-user with a weak password: refused before the question, the password unchanged', async () => {
    const user = await makeUser({ roles: ['editor'] });
    const { decision, asked } = await decide('update-user', { id: user.id, password: user.username });
    expect(asked).toEqual([]);
    expect(decision).toMatchObject({ ok: false, error: { code: 'weak_password' } });
  });

  it('the delete question says where the category’s children go', async () => {
    const top = await wp().post<{ id: number; name: string }>('/wp/v2/categories', { name: unique('Del Top') });
    const mid = await wp().post<{ id: number; name: string }>('/wp/v2/categories', { name: unique('Del Mid'), parent: top.id });
    await Promise.all(
      ['Del Child A', 'Del Child B'].map((n) => wp().post('/wp/v2/categories', { name: unique(n), parent: mid.id })),
    );
    const tool = findTool('delete-category')!;
    expect(await reviewCall(tool, testContext(), { id: mid.id })).toMatchObject({
      approval: 'required',
      summary: `delete the category "${mid.name}" (id ${mid.id}); its 2 child categories move to its parent (id ${top.id})`,
    });
    expect(await reviewCall(tool, testContext(), { id: top.id })).toMatchObject({
      summary: `delete the category "${top.name}" (id ${top.id}); its 1 child category moves to the top level`,
    });
  });

  it('the merge question says whether the sources are kept or deleted', async () => {
    const [a, b, c] = await Promise.all(
      ['Merge A', 'Merge B', 'Merge C'].map((n) => wp().post<{ id: number; name: string }>('/wp/v2/categories', { name: unique(n) })),
    );
    const tool = findTool('merge-categories')!;
    const kept = await reviewCall(tool, testContext(), { source_ids: [a!.id, b!.id], target_id: c!.id });
    expect(kept).toMatchObject({ approval: 'required', summary: expect.stringContaining(`"${a!.name}", "${b!.name}" are kept, without the posts that move`) });
    const deleted = await reviewCall(tool, testContext(), { source_ids: [a!.id, b!.id], target_id: c!.id, delete_sources: true });
    expect(deleted).toMatchObject({
      approval: 'required',
      summary: expect.stringContaining(`then "${a!.name}", "${b!.name}" are deleted`),
    });
  });
});
