import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { unique, wp } from '../helpers/site.js';

/**
 * Security review, issue #26, finding 8: an audit log that already existed with mode 0644
 * stayed 0644 (it names users and emails). Now it is made 0600 before anything is written, or
 * the command refuses with the fix and writes nothing.
 */
const mode = (file: string) => statSync(file).mode & 0o777;
const earlier = '{"time":"2026-01-01T00:00:00.000Z","tool":"create-tag","params":{},"ok":true,"summary":"earlier"}\n';

function looseLog(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-mode-')), 'audit.jsonl');
  writeFileSync(file, earlier);
  chmodSync(file, 0o644);
  return file;
}

/** chattr +i: even root cannot chmod the file. Not every file system (or user) can set it. */
function immutable(file: string, on: boolean): boolean {
  try {
    execFileSync('chattr', [on ? '+i' : '-i', file], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(process.platform === 'win32')('an audit log readable by others', () => {
  it('is made 0600; earlier lines are kept and the write is recorded', async () => {
    const file = looseLog();
    const name = unique('Audit private');
    const run = await runCli(['invoke', '--audit-log', file, JSON.stringify({ tool: 'create-category', params: { name } })]);
    expect(run.code).toBe(0);
    expect(mode(file)).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(earlier)).toBe(true);
    expect(text).toContain(name);
  });

  it('that cannot be made private: refused with the fix, nothing written to the site', async (context) => {
    const file = looseLog();
    if (!immutable(file, true)) context.skip();
    try {
      const name = unique('Audit refused');
      const run = await runCli(['invoke', '--audit-log', file, JSON.stringify({ tool: 'create-category', params: { name } })]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`The audit log ${file} is readable by others (mode 0644)`);
      expect(run.stderr).toContain(`chmod 600 ${file}`);
      const found = await wp().get<Array<{ name: string }>>('/wp/v2/categories', { search: name, hide_empty: false });
      expect(found.filter((c) => c.name === name)).toEqual([]);
      expect(readFileSync(file, 'utf8')).toBe(earlier);
    } finally {
      immutable(file, false);
    }
  });
});
