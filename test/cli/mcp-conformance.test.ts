import { INSPECTOR_NPX } from '../../src/cli/mcp.js';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, type ExpectStatic, expect, it } from 'vitest';
import { bearerProxy } from '../helpers/bearer-proxy.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { authorize, makeUser } from '../helpers/mcp-oauth.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';
import { testSite, wp } from '../helpers/site.js';
import { tools, ToolsetSession } from '../../src/call/index.js';
import { cliArgs } from '../helpers/cli-bin.js';

// A single site's tools: the network tools are listed only on a multisite network (docs/multisite.md).
// What a session lists (#51): the default toolsets, and enable-toolset while a toolset is not enabled.
const session = new ToolsetSession(tools);
const registry = [...session.tools(), ...(session.enableTool() ? [{ name: 'enable-toolset' }] : [])];

// Issue #37 finding 4, #49: the official MCP conformance suite (pinned), each protocol revision's required set, against `cms-admin mcp --http`
// in both auth modes. The suite has no option for a bearer token, so it talks to a proxy on
// 127.0.0.1 that adds one (test/helpers/bearer-proxy.ts): in token mode the static token, in
// sign-in mode an access token a person got through the real sign-in (scripted browser through
// wp-login.php and authorize-application.php). The suite needs Node >= 22 (fs.globSync): it runs
// on the npm registry's `node` package (pinned), whatever Node runs the tests.
// The Inspector command `cms-admin mcp` prints (#52.15), in its CLI mode: what is tested is what is printed.
const INSPECTOR = [...INSPECTOR_NPX, '--cli'];
const SUITE_PACKAGES = ['--yes', '-p', 'node@24.21.0', '-p', '@modelcontextprotocol/conformance@0.2.0-alpha.12'];
/**
 * The suite's bin and the pinned Node, as npx resolved them (beforeAll): each run starts them
 * directly, not through npm again (npx's own start is most of a short run's CPU).
 */
let suite: { node: string; bin: string };

/** The two protocol revisions the server serves (issue #49); the suite runs each one's required set. */
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
type Revision = (typeof REVISIONS)[number];

/** The scenarios that apply to a server of tools: each must pass. */
const APPLICABLE: Record<Revision, string[]> = {
  '2025-11-25': [
    'server-initialize',
    'server-session-lifecycle',
    'ping',
    'tools-list',
    'dns-rebinding-protection',
    'server-sse-multiple-streams',
    'server-sse-polling',
  ],
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'caching',
    'http-header-validation',
    'dns-rebinding-protection',
    'server-sse-multiple-streams',
    'input-required-result-unsupported-methods',
    'input-required-result-validate-input',
  ],
};

/**
 * Checks accepted inside an applicable scenario, each with its reason; any other warning or
 * failure fails the test. server-sse-polling calls the suite's fixture tool `test_reconnection`,
 * which closes the stream mid-call; this server has no test tools (the call is a -32602 error),
 * so there is no mid-call close to resume from (test/cli/mcp-resume.test.ts proves the resume).
 * server-stateless's four need the suite's diagnostic tools (`test_missing_capability`,
 * `test_streaming_elicitation`, `test_logging_tool`) and say "Not testable"; its fifth,
 * sep-2575-server-sends-tools-list-changed-on-subscription, opens subscriptions/listen and
 * mutates the list with the fixture tool `test_trigger_tool_change` (a -32602 error here, so
 * nothing changes and no notification is due); test/cli/mcp-toolsets-modern.test.ts proves the
 * notification on the listen stream with our own change, enable-toolset. caching's three ask
 * prompts/list, resources/list and resources/templates/list, which a server of tools answers
 * -32601; its tools/list and server/discover checks pass.
 */
const ACCEPTED: Record<string, string[]> = {
  'server-sse-polling': ['server-sse-disconnect-resume'],
  'server-stateless': [
    'sep-2575-server-rejects-undeclared-capability',
    'sep-2575-missing-capability-http-400',
    'sep-2575-http-server-no-independent-requests-on-stream',
    'sep-2575-server-no-log-without-loglevel',
    'sep-2575-server-sends-tools-list-changed-on-subscription',
  ],
  caching: [
    'sep-2549-prompts-list-caching-hints',
    'sep-2549-resources-list-caching-hints',
    'sep-2549-resources-templates-list-caching-hints',
  ],
};

/** Every other scenario the required sets run, and why it does not apply (docs/remote-mcp.md says the same). */
const FIXTURE_TOOLS = "calls the suite's own fixture tools (test_*), which a WordPress server does not have";
const NOT_APPLICABLE: Record<string, string> = {
  ...Object.fromEntries(
    [
      'tools-call-simple-text',
      'tools-call-image',
      'tools-call-audio',
      'tools-call-embedded-resource',
      'tools-call-mixed-content',
      'tools-call-with-logging',
      'tools-call-error',
      'tools-call-with-progress',
      'tools-call-sampling',
      'tools-call-elicitation',
      'json-schema-2020-12',
      'elicitation-sep1034-defaults',
      'elicitation-sep1330-enums',
      'input-required-result-basic-elicitation',
      'input-required-result-basic-sampling',
      'input-required-result-basic-list-roots',
      'input-required-result-request-state',
      'input-required-result-multiple-input-requests',
      'input-required-result-multi-round',
      'input-required-result-missing-input-response',
      'input-required-result-result-type',
      'input-required-result-tampered-state',
      'input-required-result-capability-check',
      'input-required-result-ignore-extra-params',
    ].map((name) => [name, FIXTURE_TOOLS]),
  ),
  'http-custom-header-server-validation': 'needs a tool with x-mcp-header parameters; none of ours has one',
  'logging-set-level': 'no logging capability declared',
  'completion-complete': 'no completions capability declared',
  'input-required-result-non-tool-request': 'asks prompts/get for input; no prompts capability declared',
  'sep-2164-resource-not-found': 'no resources capability declared (resources/read is -32601)',
  ...Object.fromEntries(
    [
      'resources-list',
      'resources-read-text',
      'resources-read-binary',
      'resources-templates-read',
      'resources-subscribe',
      'resources-unsubscribe',
    ].map((name) => [name, 'no resources capability declared']),
  ),
  ...Object.fromEntries(
    ['prompts-list', 'prompts-get-simple', 'prompts-get-with-args', 'prompts-get-embedded-resource', 'prompts-get-with-image'].map(
      (name) => [name, 'no prompts capability declared'],
    ),
  ),
  ...Object.fromEntries(
    [
      'tasks-lifecycle',
      'tasks-capability-negotiation',
      'tasks-wire-fields',
      'tasks-request-state-removal',
      'tasks-mrtr-input',
      'tasks-request-headers',
      'tasks-dispatch-and-envelope',
      'tasks-status-notifications',
      'tasks-required-task-error',
      'tasks-mrtr-composition',
    ].map((name) => [name, 'the tasks extension (not scored for the revision): no tasks capability declared']),
  ),
};

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
  details?: { eventId?: string; lastEventIdUsed?: string; receivedToolResponse?: boolean };
}

const token = `conformance-token-${'y'.repeat(20)}-${process.pid}`;
const site = testSite();
const children: ChildProcess[] = [];
let output = '';

/** `cms-admin mcp --http` as a user starts it; resolves with its /mcp address. */
function startServer(args: string[], env: Record<string, string>): Promise<string> {
  const { CMS_URL: _u, CMS_USERNAME: _n, CMS_APP_PASSWORD: _p, CMS_MCP_TOKEN: _t, ...rest } = process.env;
  const child = spawn(
    process.execPath,
    [...cliArgs(), 'mcp', '--http', '--port', '0', ...args],
    { cwd: REPO_ROOT, env: { ...rest, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stderr = '';
  return new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (data) => {
      stderr += data;
      output += data;
      const found = /serving MCP \(Streamable HTTP\) at (\S+)/.exec(stderr);
      if (found) resolve(found[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`mcp --http exited (${code}): ${stderr}`)));
  });
}

/** The suite's required set of `revision` against `url`: each scenario's checks, from the files it writes. */
async function requiredSet(revision: Revision, url: string): Promise<Map<string, Check[]>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cms-conformance-'));
  const run = await promisify(execFile)(suite.node, [suite.bin, 'server', '--url', url, '--requirements', revision, '-o', dir], {
    cwd: tmpdir(),
    timeout: 480_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
  output += run.stdout;
  const scenarios = new Map<string, Check[]>();
  for (const entry of readdirSync(dir)) {
    const name = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(entry)?.[1];
    const file = path.join(dir, entry, 'checks.json');
    if (name && statSync(path.join(dir, entry)).isDirectory()) scenarios.set(name, JSON.parse(readFileSync(file, 'utf8')) as Check[]);
  }
  return scenarios;
}

/** Fails on any FAILURE or WARNING of an applicable scenario not accepted above (with the suite's own messages). */
function expectConformant(expect: ExpectStatic, revision: Revision, scenarios: Map<string, Check[]>): void {
  // A scenario the suite adds must be classified here (and in docs/remote-mcp.md) before it passes.
  expect([...scenarios.keys()].filter((name) => !APPLICABLE[revision].includes(name) && !NOT_APPLICABLE[name])).toEqual([]);
  for (const name of APPLICABLE[revision]) {
    const checks = scenarios.get(name);
    expect(checks, `${revision}: ${name} did not run`).toBeDefined();
    const accepted = ACCEPTED[name] ?? [];
    const bad = (checks ?? []).filter(
      (check) => (check.status === 'FAILURE' || check.status === 'WARNING') && !accepted.includes(check.id),
    );
    expect(bad.map((check) => `${revision} ${name}: ${check.status} ${check.id}: ${check.errorMessage ?? ''}`)).toEqual([]);
    expect(checks?.some((check) => check.status === 'SUCCESS'), `${revision}: ${name} has no SUCCESS`).toBe(true);
  }
}

beforeAll(async () => {
  // The first run downloads the suite (and Node) into npm's cache.
  const where = 'command -v node && readlink -f "$(command -v conformance)"';
  const { stdout } = await promisify(execFile)('npx', [...SUITE_PACKAGES, '--', 'sh', '-c', where], { cwd: tmpdir(), timeout: 600_000 });
  const [node, bin] = stdout.trim().split('\n');
  if (!node || !bin) throw new Error(`npx did not name the suite's node and bin: ${stdout}`);
  suite = { node, bin };
  await promisify(execFile)(suite.node, [suite.bin, 'list', '--server'], { cwd: tmpdir(), timeout: 120_000 });
}, 600_000);

afterAll(() => {
  for (const child of children) child.kill();
  recordOutput(output);
});

describe('the MCP conformance suite 0.2.0-alpha.12 against cms-admin mcp --http', () => {
  let tokenUrl = '';
  let signInUrl = '';
  /** The servers themselves (no proxy) and the bearer each takes, for the Inspector. */
  const direct: Record<string, { url: string; bearer: string }> = {};
  let closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    const tokenServer = await startServer([], {
      CMS_URL: site.url,
      CMS_USERNAME: site.username,
      CMS_APP_PASSWORD: site.appPassword,
      CMS_MCP_TOKEN: token,
    });
    const tokenProxy = await bearerProxy(tokenServer, token);
    tokenUrl = tokenProxy.url;
    direct['static token'] = { url: tokenServer, bearer: token };

    const stateDir = mkdtempSync(path.join(tmpdir(), 'cms-conformance-state-'));
    const signInServer = await startServer(['--auth', 'wordpress', '--state-dir', stateDir], { CMS_URL: site.url });
    const person = await makeUser('editor');
    const oauth = await authorize(signInServer, person, 'Conformance suite');
    const access = oauth.tokens()?.access_token as string;
    recordSecret(access);
    const signInProxy = await bearerProxy(signInServer, access);
    signInUrl = signInProxy.url;
    direct['signed in with WordPress'] = { url: signInServer, bearer: access };
    closers = [tokenProxy.close, signInProxy.close];
  }, 120_000);

  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
  });

  // The MCP Inspector's CLI (pinned), a third-party client with its own --header option.
  for (const mode of ['static token', 'signed in with WordPress']) {
    it(`MCP Inspector CLI 2.12.0 lists the tools and calls one: ${mode}`, { timeout: 600_000 }, async () => {
      const { url, bearer } = direct[mode] as { url: string; bearer: string };
      const inspect = async (...args: string[]) => {
        const run = await promisify(execFile)(
          'npx',
          [...INSPECTOR, url, '--transport', 'http', '--header', `Authorization: Bearer ${bearer}`, ...args],
          { cwd: tmpdir(), timeout: 570_000, maxBuffer: 16 * 1024 * 1024 },
        );
        return JSON.parse(run.stdout) as Record<string, unknown>;
      };
      const listed = (await inspect('--method', 'tools/list')) as { tools: Array<{ name: string }> };
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual(registry.map((tool) => tool.name).sort());
      const called = (await inspect('--method', 'tools/call', '--tool-name', 'get-cms-tags', '--tool-arg', 'limit=1')) as {
        isError?: boolean;
        structuredContent?: { total: number };
      };
      expect(called.isError ?? false).toBe(false);
      expect(called.structuredContent?.total).toBe(await wp().count('/wp/v2/tags', { hide_empty: false }));
    });
  }

  // Each revision's required set is one suite process against each server; they run side by
  // side (vitest's maxConcurrency, 5), since most of the time is the suite's own waits.
  for (const revision of REVISIONS) {
    it.concurrent(`--requirements ${revision}: static token`, { timeout: 540_000 }, async ({ expect }) => {
      expectConformant(expect, revision, await requiredSet(revision, tokenUrl));
    });
    it.concurrent(`--requirements ${revision}: signed in with WordPress`, { timeout: 540_000 }, async ({ expect }) => {
      expectConformant(expect, revision, await requiredSet(revision, signInUrl));
    });
  }
});
