import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { recordOutput } from '../helpers/output-log.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { mailTo } from '../wordpress/users/helpers.js';
import { BATCH, companion, proxy, run, useFaultProxy } from './fault-setup.js';
import { journaled } from './undo-engine.js';

/**
 * Issue #59, findings 12 and 10, for import-users. 12: a `/batch/v1` of creates that outlasts the
 * client's timeout was answered `failed` while WordPress created its accounts — missing from the
 * change, left by undo, never emailed, skipped by a re-run. 10: a re-run of an import killed
 * after it created accounts skipped them ("the account exists") though they never got their
 * new-user email. Reproduced with the fault proxy (a batch whose answer is kept back until the
 * client gives up, a batch parked past it, a batch never delivered to a killed CLI); the site and
 * WordPress's mail log read back.
 */
useFaultProxy();

/** The batch that creates the accounts (not the one that emails them). */
const CREATES = { method: 'POST', path: BATCH, body: /"path":"\/wp\/v2\/users\?_fields/ };
/** The batch of new-user emails. */
const WELCOMES = { method: 'POST', path: BATCH, body: /\/welcome"/ };
/** A client timeout short enough for a test, long enough for three creates on a busy sandbox. */
const TIMEOUT = 8_000;

function rows(n: number) {
  const prefix = unique('lost').replace(/[^a-z0-9]/gi, '').toLowerCase();
  const logins = Array.from({ length: n }, (_, i) => `${prefix}_${i}`);
  return { prefix, logins, csv: ['user_login,user_email', ...logins.map((l) => `${l},${l}@example.org`)].join('\n') };
}

async function accounts(prefix: string) {
  return wp().get<Array<{ id: number; username: string }>>('/wp/v2/users', { search: `${prefix}_`, context: 'edit', _fields: 'id,username', per_page: 100 });
}

const newUserMails = async (logins: string[]) =>
  Promise.all(logins.map(async (l) => (await mailTo(`${l}@example.org`)).filter((m) => /Login Details/.test(m.subject)).length));

async function removeAll(prefix: string): Promise<void> {
  for (const u of await accounts(prefix)) await wp().delete(`/wp/v2/users/${u.id}`, { force: true, reassign: 1 });
}

describe('import-users when a batch outlasts the client (#59.12)', { timeout: 180_000 }, () => {
  it('the accounts of a batch whose answer never came are found before answering: created, emailed, in the change', async () => {
    const { prefix, logins, csv } = rows(3);
    const journal = memoryJournal();
    const context = journaled(journal, companion(TIMEOUT));
    const since = proxy.events.length;
    proxy.clear().inject({ ...CREATES, limit: 1, fault: { kind: 'stall' } });
    const outcome = await run(context, 'import-users', { csv });
    proxy.clear();
    expect(proxy.faults(since)).toEqual({ stall: 1 });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const answer = outcome.result as { counts: Record<string, number>; rows: Array<{ user_login: string; result: string; sent_to?: string }> };
    expect(answer.counts).toMatchObject({ created: 3, failed: 0 });
    expect(answer.rows.map((r) => [r.user_login, r.result, Boolean(r.sent_to)])).toEqual(logins.map((l) => [l, 'created', true]));
    expect((await accounts(prefix)).map((u) => u.username).sort()).toEqual(logins);
    expect(await newUserMails(logins)).toEqual([1, 1, 1]);
    // In the change: its undo deletes them.
    expect((await undoChange(context, journal)).conflicts).toEqual([]);
    expect(await accounts(prefix)).toEqual([]);
  });

  it('made after the answer (not found yet): unknown, no email; a re-run gives them their email once; undo removes them', async () => {
    const { prefix, logins, csv } = rows(3);
    const journal = memoryJournal();
    const context = journaled(journal, companion(TIMEOUT));
    proxy.clear().inject({ ...CREATES, limit: 1, fault: { kind: 'hold' } });
    const first = await run(context, 'import-users', { csv });
    // WordPress gets the batch only now, after the call answered.
    proxy.release();
    if (!first.ok) throw new Error(JSON.stringify(first.error));
    const answer = first.result as { counts: Record<string, number>; rows: Array<{ result: string; reason?: string }> };
    expect(answer.counts).toMatchObject({ unknown: 3, failed: 0, created: 0 });
    expect(answer.rows[0]?.reason).toMatch(/may still create it \(no email was sent\)/);
    await vi.waitFor(async () => expect(await accounts(prefix)).toHaveLength(3), { timeout: 30_000, interval: 200 });
    proxy.clear();
    const [entry] = await journal.entries();
    expect(entry?.status).toBe('unknown');
    expect(await newUserMails(logins)).toEqual([0, 0, 0]);

    // The re-run does not skip them: it finishes them (#59.10), each emailed once.
    const again = await run(context, 'import-users', { csv });
    if (!again.ok) throw new Error(JSON.stringify(again.error));
    const rerun = again.result as { counts: Record<string, number>; rows: Array<{ result: string; reason?: string }> };
    expect(rerun.counts).toMatchObject({ finished: 3, skip: 0 });
    expect(rerun.rows[0]?.reason).toContain(`made by import ${entry?.change_id}`);
    expect(await newUserMails(logins)).toEqual([1, 1, 1]);
    // A third run has nothing left to finish: each has its link now, and says so.
    const third = await run(context, 'import-users', { csv });
    expect(third).toMatchObject({ ok: true, result: { counts: { skip: 3 } } });
    expect((third.ok ? (third.result as { rows: Array<{ reason: string }> }).rows[0]?.reason : '')).toMatch(/has a set-password link already/);
    expect(await newUserMails(logins)).toEqual([1, 1, 1]);

    // The first change's undo finds what it made by login, and deletes it.
    expect((await undoChange(context, journal, { change_id: entry?.change_id })).conflicts).toEqual([]);
    expect(await accounts(prefix)).toEqual([]);
  });
});

describe('a re-run of an import killed after it created the accounts (#59.10)', { timeout: 180_000 }, () => {
  it('finishes them: each gets the new-user email the killed run never sent', async () => {
    const { prefix, logins, csv } = rows(3);
    const store = path.join(mkdtempSync(path.join(tmpdir(), 'unfinished-')), 'changes.db');
    const site = testSite();
    const env = { CMS_URL: proxy.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: store };
    // The accounts are made; the batch of emails is parked, the CLI killed, and the batch never delivered.
    proxy.clear().inject({ ...WELCOMES, limit: 1, fault: { kind: 'hold' } });
    const child = spawn(process.execPath, [...cliArgs(), 'invoke', JSON.stringify({ tool: 'import-users', params: { csv } })], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await Promise.race([proxy.whenHeld(), exited.then(() => Promise.reject(new Error(`the CLI ended first: ${out}`)))]);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    recordOutput(out);
    proxy.discard().clear();
    try {
      expect((await accounts(prefix)).map((u) => u.username).sort()).toEqual(logins);
      expect(await newUserMails(logins)).toEqual([0, 0, 0]);

      const rerun = await runCli(['invoke', JSON.stringify({ tool: 'import-users', params: { csv } })], { env });
      expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
      const answer = JSON.parse(rerun.stdout).result as { counts: Record<string, number>; rows: Array<{ result: string; reason: string }> };
      expect(answer.counts).toMatchObject({ finished: 3, skip: 0 });
      expect(answer.rows.map((r) => r.reason)).toEqual(logins.map(() => expect.stringMatching(/^made by import c\w+, which did not finish, and never got its way in/)));
      expect(await newUserMails(logins)).toEqual([1, 1, 1]);
    } finally {
      await removeAll(prefix);
    }
  });
});
