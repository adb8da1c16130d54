import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { recordSecret } from '../helpers/output-log.js';
import { unique, wp } from '../helpers/site.js';
import { fileJournal, newChangeId } from '../../src/undo/journal.js';
import { changeStore } from '../../src/undo/change-store.js';

/**
 * A full disk under the change store (#47: the intent cannot be committed, so the write is not
 * made) and #33 finding 6 (a new account given a deleted person's login saw their changes),
 * through the CLI against the sandbox, read back.
 */
const invoke = (tool: string, params: Record<string, unknown>, env: NodeJS.ProcessEnv) =>
  runCli(['invoke', JSON.stringify({ tool, params })], { env });

async function createTag(name: string, env: NodeJS.ProcessEnv, extra: Record<string, unknown> = {}) {
  const run = await invoke('create-tag', { name, ...extra }, env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { ok: true; result: { id: number; journal_failed?: string } };
}

const tagExists = async (id: number) =>
  (await wp().get<Array<{ id: number }>>('/wp/v2/tags', { include: [id], hide_empty: false })).length === 1;

describe('a change store on a full disk (a real 256 KiB tmpfs, #47)', () => {
  const mount = mkdtempSync(path.join(tmpdir(), 'journal-tmpfs-'));
  let mounted = false;
  beforeAll(() => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', mount], { stdio: 'pipe' });
      mounted = true;
    } catch (err) {
      console.warn(`journal-safety: cannot mount a tmpfs (${(err as Error).message.split('\n')[0]}): the full-disk test is skipped`);
    }
  });
  afterAll(async () => {
    // This process read the store: its connection is closed before the disk goes away.
    await changeStore(path.join(mount, 'changes.db')).close();
    if (mounted) execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });

  it('a change the store cannot record is not made at all (journal_unavailable); once there is room the next is journalled and undone', { timeout: 240_000 }, async (ctx) => {
    if (!mounted) ctx.skip();
    const journal = path.join(mount, 'changes.db');
    const env = { CMS_JOURNAL: journal };
    const first = await createTag(unique('Disk first'), env);
    // Fill the disk.
    const filler = path.join(mount, 'filler');
    const page = Buffer.alloc(4096, 1);
    for (let i = 0; i < 256; i++) {
      try {
        appendFileSync(filler, page);
      } catch {
        break;
      }
    }
    // An entry far larger than what is left (a long description, before and after).
    const name = unique('Disk big');
    const big = await invoke('create-tag', { name, description: 'd'.repeat(12_000) }, env);
    expect(big.code).not.toBe(0);
    const refused = JSON.parse(big.stdout);
    expect(refused.error.code).toBe('journal_unavailable');
    expect(refused.error.message).toContain(journal);
    expect(refused.error.hint).toContain('--journal off');
    // Not made: the site has no such tag.
    expect((await wp().get<Array<{ name: string }>>('/wp/v2/tags', { search: name, hide_empty: false })).filter((t) => t.name === name)).toEqual([]);
    rmSync(filler);

    const next = await createTag(unique('Disk next'), env);
    expect(next.result.journal_failed).toBeUndefined();
    const entries = await fileJournal(journal).entries();
    expect(entries.map((e) => e.summary)).toEqual([
      expect.stringContaining(`created tag ${first.result.id}`),
      expect.stringContaining(`created tag ${next.result.id}`),
    ]);
    const listed = await runCli(['changes'], { env });
    expect(listed.stdout).toContain(`created tag ${next.result.id}`);
    expect(listed.stdout).toContain(`2 of 2 changes in ${journal}`);
    const undone = await runCli(['undo', '--yes'], { env });
    expect(undone.code, undone.stderr).toBe(0);
    expect(await tagExists(next.result.id)).toBe(false);
    expect(await tagExists(first.result.id)).toBe(true);
  });
});

describe('a reused login (#33.6)', () => {
  it("a new account given a deleted administrator's login sees none of their changes and cannot undo them", { timeout: 240_000 }, async () => {
    const journal = path.join(mkdtempSync(path.join(tmpdir(), 'journal-login-')), 'changes.jsonl');
    const login = unique('admin2').toLowerCase().replace(/[^a-z0-9]/g, '');
    const account = async (roles: string[]) => {
      const password = `${randomBytes(12).toString('hex')}Aa1!`;
      recordSecret(password);
      const user = await wp().post<{ id: number }>('/wp/v2/users', { username: login, email: `${login}.${roles[0]}@example.com`, password, roles });
      const app = await wp().post<{ password: string }>(`/wp/v2/users/${user.id}/application-passwords`, { name: unique('journal app') });
      recordSecret(app.password);
      return { id: user.id, env: { CMS_JOURNAL: journal, CMS_USERNAME: login, CMS_APP_PASSWORD: app.password } };
    };
    const old = await account(['administrator']);
    const made = await createTag(unique('Old admin2 tag'), old.env);
    const [entry] = await fileJournal(journal).entries();
    expect(entry).toMatchObject({ user: login, user_id: old.id });
    if (!entry) throw new Error('no entry');
    await wp().delete(`/wp/v2/users/${old.id}`, { force: true, reassign: 1 });

    const reused = await account(['subscriber']);
    expect(reused.id).not.toBe(old.id);
    const listed = JSON.parse((await invoke('list-changes', {}, reused.env)).stdout);
    expect(listed).toMatchObject({ ok: true, result: { total: 0, items: [] } });
    const byId = JSON.parse((await runCli(['invoke', '--dry-run', JSON.stringify({ tool: 'undo-change', params: { change_id: entry.change_id } })], { env: reused.env })).stdout);
    expect(byId).toMatchObject({ ok: false, error: { code: 'change_not_found' } });
    const last = await runCli(['undo', '--yes'], { env: reused.env });
    expect(last.code).toBe(1);
    expect(last.stderr).toContain('nothing_to_undo');
    const dry = await runCli(['undo', entry.change_id, '--dry-run'], { env: reused.env });
    expect(dry.stderr).toContain('change_not_found');
    expect(await tagExists(made.result.id)).toBe(true);
  });
});

describe('history after an upgrade, and its export (#59.11, #58.6)', () => {
  it('`changes --journal old.jsonl` lists the old journal before any site command imported it', { timeout: 120_000 }, async () => {
    const old = path.join(mkdtempSync(path.join(tmpdir(), 'journal-old-')), 'old.jsonl');
    const line = (summary: string) =>
      JSON.stringify({ change_id: newChangeId(), at: new Date().toISOString(), user: 'admin', tool: 'create-tag', params: { name: summary }, summary, reversible: true, before: {}, after: {} });
    writeFileSync(old, `${line('created tag 501 (Upgrade one)')}\n${line('created tag 502 (Upgrade two)')}\n`);
    const listed = await runCli(['changes', '--journal', old]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('Upgrade one');
    expect(listed.stdout).toContain('Upgrade two');
    expect(listed.stdout).toContain(`2 of 2 changes in ${old}.db`);
  });

  it('`changes --export FILE` onto an existing 0644 file leaves it 0600, as it says', { timeout: 120_000 }, async () => {
    const d = mkdtempSync(path.join(tmpdir(), 'journal-export-'));
    const journal = path.join(d, 'changes.db');
    await createTag(unique('Export me'), { CMS_JOURNAL: journal });
    const out = path.join(d, 'export.jsonl');
    writeFileSync(out, 'old contents\n');
    chmodSync(out, 0o644);
    const run = await runCli(['changes', '--journal', journal, '--export', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('mode 0600');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, 'utf8')).toContain('Export me');
  });
});
