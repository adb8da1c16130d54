import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { testSite, unique, wp } from '../../helpers/site.js';
import { expectNoSecretsLeaked, formLogin, makeUser, runIn, secret } from './helpers.js';

afterAll(() => expectNoSecretsLeaked());

it('log-out-user, revoke-app-passwords and delete-user are in the audit log, with no password in it', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-')), 'audit.jsonl');
  const context = createContext(testSite(), { auditLog: file });
  const user = await makeUser({ prefix: 'audited', roles: ['author'] });
  const heir = await makeUser({ prefix: 'auditheir', roles: ['editor'] });
  const appName = unique('audited app');
  const app = await wp().post<{ uuid: string; password: string }>(`/wp/v2/users/${user.id}/application-passwords`, {
    name: appName,
  });
  await wp().post('/wp/v2/posts', { title: 'Audited post', author: user.id, status: 'draft' });
  secret(app.password);
  expect((await formLogin(user.username, user.password)).ok).toBe(true);

  for (const [tool, params] of [
    ['log-out-user', { user_id: user.id }],
    ['revoke-app-passwords', { user_id: user.id }],
    ['list-app-passwords', { user_id: heir.id }],
    ['delete-user', { id: user.id, reassign_to: heir.id }],
  ] as const) {
    const outcome = await runIn(context, tool, params);
    expect(outcome.ok, `${tool}: ${JSON.stringify(outcome)}`).toBe(true);
  }
  const text = readFileSync(file, 'utf8');
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines.map((l) => [l.tool, l.ok])).toEqual([
    ['log-out-user', true],
    ['revoke-app-passwords', true],
    ['delete-user', true],
  ]);
  expect(lines[0].summary).toContain('sessions_ended=1');
  // Which passwords went and who got which posts: in the entry, not only counts.
  expect(lines[1].detail).toMatchObject({ revoked: [{ uuid: app.uuid, name: appName }], count: 1 });
  expect(lines[2].params).toMatchObject({ id: user.id, reassign_to: heir.id });
  expect(lines[2].detail).toMatchObject({
    reassigned_to: { id: heir.id, username: heir.username },
    posts_reassigned: { post: 1 },
  });
  for (const value of [app.password, user.password, testSite().appPassword]) expect(text).not.toContain(value);
});
