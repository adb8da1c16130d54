import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { lastBrowser, makeUser, rawPost, signIn } from '../helpers/mcp-oauth.js';
import { recordOutput } from '../helpers/output-log.js';
import { testSite } from '../helpers/site.js';
import { cliArgs } from '../helpers/cli-bin.js';

// `cms-admin mcp --http` without a token, as a user starts it: people sign in with WordPress.
const stateDir = mkdtempSync(path.join(tmpdir(), 'cms-oauth-cli-'));
let server: ChildProcess;
let url = '';
let stderr = '';

beforeAll(async () => {
  const site = testSite();
  // No token and no account of its own: it needs only the site's address.
  const { CMS_MCP_TOKEN: _t, CMS_USERNAME: _u, CMS_APP_PASSWORD: _p, ...env } = process.env;
  server = spawn(
    process.execPath,
    [
      ...cliArgs(),
      'mcp',
      '--http',
      '--port',
      '0',
      '--state-dir',
      stateDir,
    ],
    {
      cwd: REPO_ROOT,
      env: { ...env, CMS_URL: site.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  server.stderr?.on('data', (d) => (stderr += d));
  url = await new Promise<string>((resolve, reject) => {
    server.stderr?.on('data', () => {
      const m = /serving MCP \(Streamable HTTP\) at (\S+)/.exec(stderr);
      if (m) resolve(m[1] as string);
    });
    server.once('exit', (code) => reject(new Error(`mcp --http exited (${code}): ${stderr}`)));
  });
});

afterAll(() => {
  server.kill();
  recordOutput(stderr);
});

it('with only CMS_URL (no token, no account) it signs a person in; the store keeps their password encrypted, 0600', async () => {
  const unauthenticated = await rawPost(url, {});
  expect(unauthenticated.status).toBe(401);
  expect(unauthenticated.challenge).toContain('resource_metadata=');
  const editor = await makeUser('editor');
  const { client } = await signIn(url, editor, 'CLI client');
  const tags = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
  expect(tags.isError).toBe(false);
  const users = await client.callTool({ name: 'list-users', arguments: {} });
  expect(users.isError).toBe(true);
  recordOutput(JSON.stringify([tags.content, users.content]));
  await client.close();
  const store = path.join(stateDir, 'oauth-store.json');
  expect(statSync(store).mode & 0o777).toBe(0o600);
  const password = lastBrowser?.appPassword as string;
  expect(password.length).toBeGreaterThan(16);
  const text = readFileSync(store, 'utf8');
  expect(text).toContain(editor.username);
  expect(text).not.toContain(password);
  expect(text).not.toContain(password.replace(/\s+/g, ''));
});
