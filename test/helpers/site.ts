import { WordPressClient } from '../../src/client/index.js';
import { createContext } from '../../src/config.js';
import { invoke } from '../../src/call/envelope.js';
import { recordOutput, recordSecretsOf } from './output-log.js';
import type { ToolContext, ToolOutcome } from '../../src/call/index.js';

/** Credentials of the test sandbox, set by test/global-setup.ts. */
export function testSite() {
  const { CMS_URL, CMS_USERNAME, CMS_APP_PASSWORD } = process.env;
  if (!CMS_URL || !CMS_USERNAME || !CMS_APP_PASSWORD) {
    throw new Error('The test sandbox is not up: run the tests through vitest (global setup starts it).');
  }
  return { url: CMS_URL, username: CMS_USERNAME, appPassword: CMS_APP_PASSWORD };
}

/** True when the test site runs WordPress `version` (e.g. "6.6") or newer. */
export function wordPressAtLeast(version: string): boolean {
  const have = (process.env.CMS_TEST_WORDPRESS ?? '').split('.').map(Number);
  const want = version.split('.').map(Number);
  for (let i = 0; i < want.length; i++) {
    const a = have[i] ?? 0;
    const b = want[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

let shared: ToolContext | undefined;

/**
 * A new test file begins: its own tool context and fixture client from here on (a worker's files
 * share this module, isolate: false; a client's caches and counts belong to one file).
 * test/helpers/worker-sandbox.ts calls it before each file.
 */
export function beginTestFile(): void {
  shared = undefined;
  rawClient = undefined;
}

/** One tool context (one client) for a test file. */
export function testContext(): ToolContext {
  shared ??= createContext(testSite());
  return shared;
}

/** Calls a tool through the spec's envelope, as an LLM client would. */
export async function call(tool: string, params?: Record<string, unknown>): Promise<ToolOutcome> {
  return recorded(params, await invoke(params === undefined ? { tool } : { tool, params }, testContext()));
}

/** Notes the passwords a test gives and the outcome it gets, for the suite-wide secrets check. */
function recorded(params: unknown, outcome: ToolOutcome): ToolOutcome {
  // A password the site accepted is a real secret from then on; refused ones are often public
  // on purpose (tests of "must not be the username"). Error paths have their own secrets test.
  if (outcome.ok) recordSecretsOf(params);
  recordOutput(JSON.stringify(outcome));
  // A bug in our code fails the test that triggers it, even one expecting an error.
  if (!outcome.ok && outcome.error.code === 'internal_error') throw new Error(`Bug: ${outcome.error.message}`);
  return outcome;
}

/** Calls a tool and returns its result, failing the test with the error if it did not succeed. */
export async function callOk<T = any>(tool: string, params?: Record<string, unknown>): Promise<T> {
  const outcome = await call(tool, params);
  if (!outcome.ok) throw new Error(`${tool} failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result as T;
}

let rawClient: WordPressClient | undefined;

/**
 * A separate client for fixtures and for reading the site back, so assertions do not go
 * through the code under test's own tool logic.
 */
export function wp(): WordPressClient {
  rawClient ??= new WordPressClient(testSite());
  return rawClient;
}

let counter = 0;
/** A name no other test (or earlier run) uses. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix} ${process.pid.toString(36)}${Date.now().toString(36)}${counter}`;
}

/**
 * The same real site as a client sees it when the companion plugin is not installed: tools
 * then take their REST-only paths (e.g. /batch/v1 instead of the plugin's bulk route).
 */
export function withoutCompanion<C extends ToolContext>(context: C): C {
  const { client } = context;
  const namespaces = client.namespaces.bind(client);
  client.namespaces = async () => (await namespaces()).filter((ns) => ns !== 'cms-admin/v1');
  return context;
}

/** A fresh context on the test site without the companion plugin's help (see withoutCompanion). */
export function restOnlyContext(): ToolContext {
  return withoutCompanion(createContext(testSite()));
}

/** call through a given context. */
export async function callIn(context: ToolContext, tool: string, params?: Record<string, unknown>): Promise<ToolOutcome> {
  return recorded(params, await invoke(params === undefined ? { tool } : { tool, params }, context));
}

/** callOk through a given context. */
export async function callOkIn<T = any>(
  context: ToolContext,
  tool: string,
  params?: Record<string, unknown>,
): Promise<T> {
  const outcome = recorded(params, await invoke(params === undefined ? { tool } : { tool, params }, context));
  if (!outcome.ok) throw new Error(`${tool} failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result as T;
}
