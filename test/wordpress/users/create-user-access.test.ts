import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import type { HandedSecret } from '../../../src/call/index.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { testSite, withoutCompanion, wp } from '../../helpers/site.js';
import {
  expectNoSecretsLeaked,
  formLogin,
  mailTo,
  newIdentity,
  newPassword,
  resetThroughLink,
  runError,
  runIn,
  secret,
} from './helpers.js';

/** The set-password link in WordPress's new-user email, registered as a secret. */
async function welcomeLinkMailedTo(email: string): Promise<string> {
  const mail = (await mailTo(email)).at(-1);
  expect(mail?.subject).toContain('Login Details');
  const link = /(http\S+wp-login\.php\?\S*action=rp\S*)/.exec(mail?.message ?? '')?.[1];
  if (!link) throw new Error(`no set-password link in: ${mail?.message}`);
  secret(new URL(link).searchParams.get('key') ?? link);
  return secret(link);
}

describe('create-user without a password', () => {
  afterAll(() => expectNoSecretsLeaked());

  it('sends WordPress’s new-user email; its link sets the password that logs in; nothing says a password', async () => {
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal });
    const { username, email } = newIdentity('nopw');
    const outcome = await runIn(context, 'create-user', { username, email, role: 'author' });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const [local = ''] = email.split('@');
    expect(outcome.result).toMatchObject({
      username,
      roles: ['author'],
      access: { delivery: 'email', sent_to: `${local[0]}***${local.at(-1)}@example.org`, expires_in_hours: 24 },
    });
    expect(JSON.stringify(outcome)).not.toMatch(/password"/);
    const [entry] = await journal.entries();
    expect(JSON.stringify(entry)).not.toMatch(/password/i);
    const link = await welcomeLinkMailedTo(email);
    const fresh = newPassword();
    expect(await resetThroughLink(link, fresh)).toBe(true);
    expect((await formLogin(username, fresh)).ok).toBe(true);
  });

  it('hands a set-password link to the operator with delivery link, and sends no email', async () => {
    const handed: HandedSecret[] = [];
    const context = createContext(testSite(), {
      secretsTo: async (s) => {
        handed.push(s);
        secret(s.value);
        return 'the test operator';
      },
    });
    const { username, email } = newIdentity('nopwlink');
    const outcome = await runIn(context, 'create-user', { username, email, delivery: 'link' });
    expect(outcome).toMatchObject({ ok: true, result: { username, access: { delivery: 'link', link_given_to: 'the test operator' } } });
    expect(handed).toHaveLength(1);
    expect(await mailTo(email)).toEqual([]);
    expect(await resetThroughLink(handed[0]!.value, newPassword())).toBe(true);
  });

  it('creates nothing when no one could be let in', async () => {
    const { username, email } = newIdentity('nopwnone');
    expect(await runError('create-user', { username, email, delivery: 'link' })).toMatchObject({ code: 'no_one_to_receive_link' });
    const bare = await runIn(withoutCompanion(createContext(testSite())), 'create-user', { username, email });
    expect(bare).toMatchObject({ ok: false, error: { code: 'companion_plugin_missing' } });
    expect(await wp().get<unknown[]>('/wp/v2/users', { search: username, context: 'edit', _fields: 'id' })).toEqual([]);
  });
});
