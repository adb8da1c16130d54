import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { wordpressAppName } from '../../src/mcp/http/consent-page.js';
import { GrantStore } from '../../src/mcp/http/grants.js';
import { redirectUriProblem } from '../../src/mcp/http/registration.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'cms-clients-'));
const client = (id: string, secret?: string) => ({
  client_id: id,
  redirect_uris: ['http://127.0.0.1:1/cb'],
  ...(secret ? { client_secret: secret } : {}),
});

describe('the registered clients store', () => {
  it('keeps client secrets sealed in a 0600 file and reads them back after a restart', () => {
    const at = dir();
    const secret = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
    new GrantStore(at).clients.add(client('c1', secret));
    const file = path.join(at, 'oauth-clients.jsonl');
    expect(readFileSync(file, 'utf8')).not.toContain(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new GrantStore(at).clients.get('c1')?.client_secret).toBe(secret);
  });

  it('a line cut by a crash loses only that registration, and the next one starts on a fresh line', () => {
    const at = dir();
    new GrantStore(at).clients.add(client('c1'));
    appendFileSync(path.join(at, 'oauth-clients.jsonl'), '{"op":"add","client":{"client_id":"cut');
    const store = new GrantStore(at);
    store.clients.add(client('c2'));
    const again = new GrantStore(at);
    expect([again.clients.get('c1')?.client_id, again.clients.get('c2')?.client_id]).toEqual(['c1', 'c2']);
  });

  it("moves an older store's clients out of oauth-store.json; a client with a grant counts as used", () => {
    const at = dir();
    const grant = {
      id: 'g1',
      clientId: 'used',
      userLogin: 'a',
      appUuid: 'u',
      password: 'x',
      refreshHash: '',
      refreshExpiresAt: 0,
      resource: 'r',
    };
    writeFileSync(
      path.join(at, 'oauth-store.json'),
      JSON.stringify({ clients: { used: client('used'), idle: client('idle') }, grants: { g1: grant } }),
      { mode: 0o600 },
    );
    const store = new GrantStore(at, { unusedTtlMs: 0 });
    expect(store.clients.get('used')?.client_id).toBe('used');
    expect(store.clients.get('idle')).toBeUndefined(); // unused, and unused ones expire at once here
    expect(JSON.parse(readFileSync(path.join(at, 'oauth-store.json'), 'utf8')).clients).toBeUndefined();
    expect(store.grant('g1')?.clientId).toBe('used');
  });
});

describe('redirect URIs a registration may name', () => {
  it.each([
    ['https://app.example/cb', undefined],
    ['http://127.0.0.1:33418/cb', undefined],
    ['http://[::1]/cb', undefined],
    ['http://localhost:8080/cb', undefined],
    ['com.example.app:/oauth', undefined],
    ['http://evil.example/cb', /plain http on another machine/],
    ['http://127.0.0.1.evil.example/cb', /plain http on another machine/],
    ['https://app.example/cb#x', /fragment/],
    ['https://user:pw@app.example/cb', /user name or password/],
    ['cursor://anysphere.cursor-retrieval/oauth/callback', undefined],
    ['vscode://ms.vscode/cb', undefined],
    ['file:///etc/passwd', /browser handles itself/],
    ['javascript:alert(1)', /browser handles itself/],
    ['data:text/html,x', /browser handles itself/],
    ['not a url', /not a URL/],
  ])('%s', (uri, problem) => {
    const found = redirectUriProblem(uri);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });
});

describe('the name WordPress shows', () => {
  it('carries the redirect host, and no direction or control characters that could turn it around', () => {
    const client = { client_id: 'c', redirect_uris: [], client_name: 'Claude\u202e\u0007 elgoog' };
    expect(wordpressAppName(client, 'https://evil.example/cb')).toBe('Claude elgoog → evil.example (cms-admin MCP)');
    expect(wordpressAppName({ ...client, client_name: 'App' }, 'com.example.app:/cb')).toBe(
      'App → com.example.app: (cms-admin MCP)',
    );
  });

  it('never cuts the host (its end says whose it is, #48): the longest a DNS name can be stays whole; a long client name is cut instead', () => {
    const host = `claude.ai.${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(38)}.evil.example`;
    expect(host).toHaveLength(253);
    const name = wordpressAppName({ client_id: 'c', redirect_uris: [], client_name: `🤖${'x'.repeat(199)}` }, `https://${host}:8443/cb`);
    expect(name).toBe(`🤖${'x'.repeat(58)}… → ${host}:8443 (cms-admin MCP)`);
  });
});
