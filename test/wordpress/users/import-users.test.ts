import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { findTool, reviewCall, type ToolContext } from '../../../src/call/index.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { undoChange } from '../../../src/undo/undo.js';
import { testSite, wp } from '../../helpers/site.js';
import { expectNoSecretsLeaked, mailTo, makeUser, newIdentity, readUser, runError, runIn, secret } from './helpers.js';

/** The acceptance's import (#50): this many rows, five of them bad. */
const ROWS = 200;

async function accountsNamed(prefix: string): Promise<Array<{ id: number; username: string; roles: string[] }>> {
  return wp().all('/wp/v2/users', { search: `${prefix}*`, context: 'edit', _fields: 'id,username,roles' });
}

/** A context whose every password sent to WordPress is remembered as a secret (none may show anywhere). */
function watched(context: ToolContext): string[] {
  const sent: string[] = [];
  const post = context.client.post.bind(context.client);
  context.client.post = (async (path: string, body?: any, query?: any) => {
    for (const item of body?.requests ?? [body]) {
      const password = item?.body?.password ?? item?.password;
      if (typeof password === 'string') sent.push(secret(password));
    }
    return post(path, body, query);
  }) as typeof context.client.post;
  return sent;
}

describe('import-users', () => {
  afterAll(() => expectNoSecretsLeaked());

  it('dry run, run and undo of rows with five bad ones; no password in any answer, journal or log', async () => {
    const existing = await makeUser();
    const prefix = newIdentity('imp').username;
    const good = Array.from({ length: ROWS - 5 }, (_, i) => `${prefix}_${i},${prefix}_${i}@example.org,"Person ${i}, Jr.",P${i},Q${i},${i === 0 ? 'editor' : 'author'},`);
    const bad = [
      `${prefix}_bad1,not-an-email,,,,,`,
      `${prefix}_0,${prefix}_twin@example.org,,,,,`,
      `${prefix}_bad3,${prefix}_bad3@example.org,,,,wizard,`,
      `,${prefix}_bad4@example.org,,,,,`,
      `${prefix}_bad5,${existing.email},,,,,`,
    ];
    const csv = ['user_login,user_email,display_name,first_name,last_name,role,url', ...good, ...bad].join('\r\n');
    const audit = join(mkdtempSync(join(tmpdir(), 'import-')), 'audit.jsonl');
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal, auditLog: audit });
    const passwords = watched(context);

    const review = (await reviewCall(findTool('import-users')!, context, { csv })) as { approval: string; summary: string };
    expect(review.approval).toBe('required');
    expect(review.summary).toContain(`create ${ROWS - 5} account(s), update 0, skip 0, 5 row(s) with errors`);
    expect(review.summary).toContain(`${prefix}_0 (line 2, editor): publish scripts and any HTML (unfiltered_html)`);

    const dry = await runIn(context, 'import-users', { csv, dry_run: true });
    expect(dry).toMatchObject({ ok: true, result: { dry_run: true, counts: { create: ROWS - 5, error: 5 } } });
    const reasons = (dry.ok ? (dry.result as any).rows : []).filter((r: any) => r.result === 'error').map((r: any) => `${r.line}: ${r.reason}`);
    expect(reasons).toEqual([
      `${ROWS - 3}: "not-an-email" is not an email address`,
      `${ROWS - 2}: the same user_login or user_email as line 2`,
      `${ROWS - 1}: no role "wizard" on this site (administrator, editor, author, contributor, subscriber)`,
      `${ROWS}: no user_login`,
      `${ROWS + 1}: user_email belongs to another account (id ${existing.id})`,
    ]);
    expect(await accountsNamed(prefix)).toEqual([]);
    expect(passwords).toEqual([]);

    const run = await runIn(context, 'import-users', { csv });
    if (!run.ok) throw new Error(JSON.stringify(run.error));
    const result = run.result as any;
    expect(result.counts).toEqual({ created: ROWS - 5, updated: 0, skip: 0, error: 5, failed: 0 });
    expect(result.access).toMatchObject({ delivery: 'email', given: ROWS - 5, failed: 0 });
    expect(result.created_ids).toBeUndefined();
    const made = await accountsNamed(prefix);
    expect(made).toHaveLength(ROWS - 5);
    expect(made.find((u) => u.username === `${prefix}_0`)?.roles).toEqual(['editor']);
    const one = made.find((u) => u.username === `${prefix}_7`)!;
    expect(await readUser(one.id)).toMatchObject({ name: 'Person 7, Jr.', first_name: 'P7', last_name: 'Q7', roles: ['author'] });
    expect((await mailTo(`${prefix}_7@example.org`)).map((m) => m.subject)).toEqual([expect.stringContaining('Login Details')]);
    // WordPress 6.1 refuses users in a batch: each is sent again alone, with the same password.
    expect(new Set(passwords).size).toBe(ROWS - 5);

    const [entry] = await journal.entries();
    expect(entry).toMatchObject({ tool: 'import-users', reversible: true });
    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([]);
    expect(await accountsNamed(prefix)).toEqual([]);

    // Every password sent is a secret the end-of-file check looks for; here, journal and audit log too.
    const kept = JSON.stringify(await journal.entries()) + readFileSync(audit, 'utf8');
    for (const password of passwords) expect(kept).not.toContain(password);
    expect(kept).not.toMatch(/"password"\s*:/);
  });

  it('updates existing accounts only with update_existing, and the undo puts them back', async () => {
    const user = await makeUser({ roles: ['subscriber'], name: 'Old Name' });
    const csv = `user_login,user_email,display_name,last_name,role,url\n${user.username},${user.email},New Name,Newlast,contributor,https://example.org/me\n`;
    const skipped = await runIn(createContext(testSite()), 'import-users', { csv });
    expect(skipped).toMatchObject({ ok: true, result: { counts: { skip: 1, created: 0, updated: 0 } } });

    const journal = memoryJournal();
    const context = createContext(testSite(), { journal });
    const run = await runIn(context, 'import-users', { csv, update_existing: true });
    expect(run).toMatchObject({ ok: true, result: { counts: { updated: 1 } } });
    expect(await readUser(user.id)).toMatchObject({ name: 'New Name', last_name: 'Newlast', url: 'https://example.org/me', roles: ['contributor'] });
    expect((await undoChange(context, journal)).conflicts).toEqual([]);
    expect(await readUser(user.id)).toMatchObject({ name: 'Old Name', last_name: '', url: '', roles: ['subscriber'] });
  });

  it('refuses a password column and unknown columns, reading no row', async () => {
    const { username, email } = newIdentity('imppw');
    const pw = secret('Sup3r-Secret-Value-42');
    const error = await runError('import-users', { csv: `user_login,user_email,user_pass\n${username},${email},${pw}` });
    expect(error).toMatchObject({ code: 'password_column' });
    expect(await runError('import-users', { csv: `user_login,email_address\n${username},${email}` })).toMatchObject({ code: 'invalid_csv' });
    expect(await accountsNamed(username)).toEqual([]);
  });
});
