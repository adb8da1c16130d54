import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GrantStore, hash } from '../../src/mcp/http/grants.js';
import { embeddedSignInStore } from '../../src/mcp/store/sign-in-embedded.js';
import type { StoredPending } from '../../src/mcp/store/sign-in-store.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'cms-signin-store-'));
const grant = (password: string) => ({
  id: 'g1',
  clientId: 'c1',
  userLogin: 'editor',
  appUuid: 'u1',
  password,
  refreshHash: '',
  refreshExpiresAt: 0,
  resource: 'http://127.0.0.1:1/mcp',
});
const pending: StoredPending = {
  client: { client_id: 'c1', redirect_uris: ['http://127.0.0.1:1/cb'] },
  params: { redirectUri: 'http://127.0.0.1:1/cb', codeChallenge: 'c'.repeat(43) },
  appId: 'a1',
  expiresAt: Date.now() + 60_000,
};

// The embedded sign-in store (one process): the same steps the PostgreSQL one makes atomic.
describe('the embedded sign-in store', () => {
  it('keeps grants in the files GrantStore reads (sealed password), and its key seals as GrantStore does', async () => {
    const at = dir();
    const store = embeddedSignInStore({ stateDir: at });
    await store.putGrant(grant(store.seal('app password value')));
    expect(readFileSync(path.join(at, 'oauth-store.json'), 'utf8')).not.toContain('app password value');
    const files = new GrantStore(at);
    expect(files.open(files.grant('g1')?.password as string)).toBe('app password value');
    expect(files.mac('x')).toBe(store.mac('x'));
  });

  it('a code is taken once; a refresh rotation from a stale digest fails; a dropped grant takes its access tokens', async () => {
    const store = embeddedSignInStore({ stateDir: dir() });
    await store.putGrant(grant(store.seal('p')));
    const code = { grantId: 'g1', clientId: 'c1', challenge: 'x', redirectUri: 'http://127.0.0.1:1/cb', expiresAt: Date.now() + 1000 };
    await store.putCode('h', code);
    expect(await store.takeCode('h')).toEqual(code);
    expect(await store.takeCode('h')).toBeUndefined();
    expect((await store.rotateRefresh('g1', '', hash('r1'), Date.now() + 1000))?.refreshHash).toBe(hash('r1'));
    expect(await store.rotateRefresh('g1', '', hash('r2'), Date.now() + 1000)).toBeUndefined();
    expect((await store.grantByRefresh(hash('r1')))?.id).toBe('g1');
    await store.putAccess('a', { grantId: 'g1', clientId: 'c1', resource: 'r', expiresAt: Date.now() + 1000 });
    expect((await store.access('a'))?.grantId).toBe('g1');
    expect((await store.dropGrant('g1'))?.id).toBe('g1');
    expect(await store.dropGrant('g1')).toBeUndefined();
    expect(await store.access('a')).toBeUndefined();
  });

  it('an approved request: live the first time, used the second, then gone; forms single use; rate windows count', async () => {
    const store = embeddedSignInStore({ stateDir: dir() });
    await store.putApproved('k', pending);
    expect((await store.takeApproved('k'))?.used).toBe(false);
    expect((await store.takeApproved('k'))?.used).toBe(true);
    expect(await store.takeApproved('k')).toBeUndefined();
    await store.putForm('f', { pending, csrfHash: 'c', browserHash: 'b' });
    expect((await store.peekForm('f'))?.csrfHash).toBe('c');
    expect(await store.takeForm('f')).toBeDefined();
    expect(await store.takeForm('f')).toBeUndefined();
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push((await store.hit('addr', 3_600_000)).count);
    expect(counts).toEqual([1, 2, 3]);
    expect((await store.hit('other', 3_600_000)).count).toBe(1);
  });
});
