import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { operatorHandOver } from '../../src/cli/chat/hand-over.js';

const secret = {
  kind: 'reset_link' as const,
  user: { id: 7, username: 'ann' },
  value: 'http://h/wp-login.php?action=rp&key=K3yK3yK3y&login=ann',
  expires_in_hours: 24,
};

describe('reset links for the operator', () => {
  it('--reset-link-file: appended with mode 0600 (also to a file that was world-readable); the terminal only names the file', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'links-')), 'links.txt');
    writeFileSync(file, '', { mode: 0o644 });
    const out = new PassThrough();
    let said = '';
    out.on('data', (chunk) => {
      said += String(chunk);
    });
    const where = await operatorHandOver(file, out)(secret);
    expect(where).toBe('the operator (written to a private file)');
    expect(readFileSync(file, 'utf8')).toContain(secret.value);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(said).toContain(file);
    expect(said).not.toContain('K3yK3yK3y');
  });

  it('without a file: shown on the terminal stream', async () => {
    const out = new PassThrough();
    let said = '';
    out.on('data', (chunk) => {
      said += String(chunk);
    });
    expect(await operatorHandOver(undefined, out)(secret)).toBe("the operator's terminal");
    expect(said).toContain(secret.value);
    expect(said).toContain('ann');
  });
});
