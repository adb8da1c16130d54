import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { recordSecret } from '../helpers/output-log.js';
import { unique, wp } from '../helpers/site.js';
import { cliArgs } from '../helpers/cli-bin.js';

/**
 * Issue #34 finding 1 (a journal line cut by a full disk or a killed process swallowed the next
 * change, and undo took back an older one) and #33 finding 6 (a new account given a deleted
 * person's login saw their changes), through the CLI against the sandbox, read back.
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

describe('a journal on a full disk (a real 64 KiB tmpfs)', () => {
  const mount = mkdtempSync(path.join(tmpdir(), 'journal-tmpfs-'));
  let mounted = false;
  beforeAll(() => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', mount], { stdio: 'pipe' });
      mounted = true;
    } catch (err) {
      console.warn(`journal-safety: cannot mount a tmpfs (${(err as Error).message.split('\n')[0]}): the full-disk test is skipped`);
    }
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });

  it('an entry that does not fit is not written at all; once there is room the next change is journalled whole, listed, and undo takes back that one', { timeout: 240_000 }, async (ctx) => {
    if (!mounted) ctx.skip();
    const journal = path.join(mount, 'changes.jsonl');
    const env = { CMS_JOURNAL: journal };
    const first = await createTag(unique('Disk first'), env);
    // Fill the disk: only the rest of the journal's last page is free.
    const filler = path.join(mount, 'filler');
    const page = Buffer.alloc(4096, 1);
    for (let i = 0; i < 64; i++) {
      try {
        appendFileSync(filler, page);
      } catch {
        break;
      }
    }
    // An entry far larger than what is left (a long description, before and after).
    const big = await createTag(unique('Disk big'), env, { description: 'd'.repeat(12_000) });
    expect(big.result.journal_failed).toMatch(/not in the change journal.*ENOSPC/);
    expect(await tagExists(big.result.id)).toBe(true);
    expect(readFileSync(journal, 'utf8').endsWith('\n')).toBe(true);
    rmSync(filler);

    const next = await createTag(unique('Disk next'), env);
    expect(next.result.journal_failed).toBeUndefined();
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).summary)).toEqual([
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

describe('a journal line cut short', () => {
  it('a write cut short by the file size limit (ulimit -f) leaves no partial line: its change answers journal_failed, the next one is whole and undone', { timeout: 240_000 }, async () => {
    const journal = path.join(mkdtempSync(path.join(tmpdir(), 'journal-cut-')), 'changes.jsonl');
    const env = { CMS_JOURNAL: journal };
    const first = await createTag(unique('Limit first'), env);
    // Another account's entries up to 100 bytes short of 4 MiB: the next entry crosses the limit.
    const size = readFileSync(journal).length;
    const pad = 4 * 1024 * 1024 - 100 - size;
    const padding = (summary: string) =>
      JSON.stringify({ change_id: 'cpad', at: new Date().toISOString(), user: 'someone', user_id: 999_999, tool: 'pad', params: {}, summary, reversible: false, before: {}, after: {} });
    appendFileSync(journal, `${padding('x'.repeat(pad - 1 - padding('').length))}\n`);
    expect(readFileSync(journal).length).toBe(4 * 1024 * 1024 - 100);
    // bash's ulimit -f counts KiB: a write across 4 MiB is cut short there (Node ignores SIGXFSZ).
    const name = unique('Limit cut');
    const limited = await new Promise<{ signal: NodeJS.Signals | null; stdout: string }>((resolve) => {
      const envelope = JSON.stringify({ tool: 'create-tag', params: { name } });
      const child = spawn('bash', ['-c', `ulimit -f 4096; exec "$0" "$@"`, process.execPath, ...cliArgs(), 'invoke', envelope], {
        env: { ...process.env, ...env },
      });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.on('close', (_status, signal) => resolve({ signal, stdout }));
    });
    expect(limited.signal).toBeNull();
    const made = JSON.parse(limited.stdout).result;
    expect(made.journal_failed).toMatch(/ENOSPC|size limit/);
    expect(readFileSync(journal).length).toBe(4 * 1024 * 1024 - 100);
    const next = await createTag(unique('Limit next'), env);
    const undone = await runCli(['undo', '--yes'], { env });
    expect(undone.code, undone.stderr).toBe(0);
    expect(await tagExists(next.result.id)).toBe(false);
    expect(await tagExists(made.id)).toBe(true);
    expect(await tagExists(first.result.id)).toBe(true);
  });

  it('a line cut by a killed writer is named by changes and list-changes; undo refuses to guess past it, reads past it when given an id, and takes back the right change after it', { timeout: 240_000 }, async () => {
    const journal = path.join(mkdtempSync(path.join(tmpdir(), 'journal-cut-')), 'changes.jsonl');
    const env = { CMS_JOURNAL: journal };
    const a = await createTag(unique('Cut a'), env);
    const sizeA = readFileSync(journal).length;
    const b = await createTag(unique('Cut b'), env);
    // B's writer killed mid-line (a writer before #34, or another program): half its line, no newline.
    truncateSync(journal, sizeA + 60);

    const listed = await runCli(['changes'], { env });
    expect(listed.stderr).toContain(`line 2 of ${journal} is damaged (cut short)`);
    const tool = JSON.parse((await invoke('list-changes', {}, env)).stdout).result;
    expect(tool.damaged?.[0]).toContain(`line 2 of ${journal} is damaged (cut short)`);
    expect(tool.items.map((i: { summary: string }) => i.summary)).toEqual([expect.stringContaining(`created tag ${a.result.id}`)]);

    // The last change is unknown (B's line is cut): undo refuses, and names the way out.
    const refused = await runCli(['undo', '--yes'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('journal_damaged');
    expect(refused.stderr).toContain(`line 2 of ${journal} is damaged (cut short)`);
    expect(refused.stderr).toContain('changes --repair');
    expect(await tagExists(a.result.id)).toBe(true);
    expect(await tagExists(b.result.id)).toBe(true);
    // Told which change, it reads past the damage.
    const idA = JSON.parse(readFileSync(journal, 'utf8').split('\n')[0] as string).change_id;
    const given = await runCli(['undo', idA, '--dry-run'], { env });
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toMatch(new RegExp(`undo ${idA}\\b.*\\b${a.result.id}\\b`));

    // The next change goes on a fresh line after the cut one; undo takes back that one.
    const c = await createTag(unique('Cut c'), env);
    expect(readFileSync(journal, 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
    const undone = await runCli(['undo', '--yes'], { env });
    expect(undone.code, undone.stderr).toBe(0);
    expect(await tagExists(c.result.id)).toBe(false);
    expect(await tagExists(a.result.id)).toBe(true);
    expect(await tagExists(b.result.id)).toBe(true);

    // Set aside: the damaged line leaves the journal; the changes stay.
    const repaired = await runCli(['changes', '--repair'], { env });
    expect(repaired.stdout).toContain(`set 1 damaged line(s) aside in ${journal}.damaged`);
    expect(existsSync(`${journal}.damaged`)).toBe(true);
    const after = await runCli(['changes'], { env });
    expect(after.stderr).not.toContain('damaged');
    expect(after.stdout).toContain(`3 of 3 changes`);
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
    const [entry] = readFileSync(journal, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(entry).toMatchObject({ user: login, user_id: old.id });
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
