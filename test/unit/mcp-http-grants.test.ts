import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GrantStore, hash, newSecret } from '../../src/mcp/http/grants.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'cms-grants-'));
const grant = (store: GrantStore, password: string) => ({
  id: 'g1',
  clientId: 'c1',
  userLogin: 'editor',
  appUuid: 'u1',
  password: store.seal(password),
  refreshHash: hash('refresh-token'),
  refreshExpiresAt: Date.now() + 1000,
  resource: 'http://127.0.0.1:1/mcp',
});

describe('the grant store', () => {
  it('keeps the application password only encrypted, in 0600 files, and reads it back after a restart', () => {
    const at = dir();
    const password = 'abcd EFGH ijkl MNOP qrst UVWX';
    const store = new GrantStore(at);
    store.putGrant(grant(store, password));
    const file = readFileSync(path.join(at, 'oauth-store.json'), 'utf8');
    expect(file).not.toContain(password);
    expect(file).not.toContain(password.replace(/\s+/g, ''));
    expect(file).not.toContain('refresh-token');
    for (const name of ['oauth-store.json', 'oauth-key'])
      expect(statSync(path.join(at, name)).mode & 0o777).toBe(0o600);
    const again = new GrantStore(at);
    expect(again.open(again.grant('g1')?.password as string)).toBe(password);
    expect(again.grantByRefresh('refresh-token')?.id).toBe('g1');
    expect(again.grantByRefresh('another')).toBeUndefined();
  });

  it('a tampered ciphertext or another key does not decrypt', () => {
    const at = dir();
    const store = new GrantStore(at);
    const sealed = store.seal('secret-password-value');
    const [iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body as string, 'base64url');
    flipped[0] = (flipped[0] as number) ^ 1;
    expect(() => store.open([iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    const other = dir();
    writeFileSync(path.join(other, 'oauth-key'), Buffer.alloc(32, 7).toString('base64'), { mode: 0o600 });
    expect(() => new GrantStore(other).open(sealed)).toThrow();
  });

  it('secrets are 256-bit and distinct', () => {
    const a = newSecret();
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(newSecret()).not.toBe(a);
  });
});
