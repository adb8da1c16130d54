import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { createContext } from '../../src/config.js';
import { packageRoot, resolveInstance, siteReset, siteUp } from '../../src/sandbox/index.js';
import { type ApprovalRequest, type Approver, invoke, type ToolContext, type ToolOutcome } from '../../src/call/index.js';
import { recordOutput, recordSecret } from './output-log.js';
import { timedReset } from './reset-time.js';
import { networkOptions, workerIndex } from './sandboxes.js';
import { phpCacheArgs } from './php-cache.js';

/**
 * A real multisite network for tests (`site up --multisite`): instance CMS_TEST_NETWORK on
 * CMS_TEST_NETWORK_PORT (default `test-net-<version>` on CMS_TEST_PORT + 22/23/24 for 7.1/6.8/6.1,
 * 8921/8922/8923 by default: a network keeps its port; test/helpers/ports.ts), WordPress CMS_SANDBOX_WP as the suite. Every call restores the
 * network as installed: sites sports, news, arts; users ana, bob, carla, dave, erin; admin the
 * only super admin (scripts/sandbox/seed-network.php).
 */

export interface TestNetwork {
  url: string;
  username: string;
  appPassword: string;
  /** The super admin's login password (wp-login.php: sign-in tests). */
  adminPassword: string;
  /** slug ('' = main) → site URL. */
  sites: Record<string, string>;
  /** login → user id. */
  users: Record<string, number>;
  /** A context on one site of the network (the main site by default), as the super admin. */
  context(site?: string): ToolContext;
  /** A new context on the main site with a change journal of its own (a file), for undo tests. */
  journalled(file: string): ToolContext;
  /** Runs PHP inside the network's WordPress (main site), returns stdout. */
  php(code: string): Promise<string>;
}

/** The test network's sandbox options (the network evals run on it too: test/evals/network-suite.test.ts). */
export function networkSandboxOptions() {
  // The name and port global setup chose, not ones worked out here: a worker's CMS_TEST_SANDBOX is
  // its own instance's name (worker-sandbox.ts), so a name made from it here would be one global
  // teardown never stops, and its server would hold the port into the next run (CI did).
  const worker = workerIndex();
  const net = inject('networks')[worker - 1];
  if (!net) throw new Error('The test networks are not named: run the tests through vitest (global setup names them).');
  return { ...networkOptions(worker), name: net.name, port: net.port };
}

const execFileAsync = promisify(execFile);

export async function testNetwork(): Promise<TestNetwork> {
  const opts = networkSandboxOptions();
  const creds = await siteUp(opts);
  await timedReset('resets of the test network', () => siteReset(opts));
  recordSecret(creds.appPassword);
  recordSecret(creds.adminPassword);
  const inst = resolveInstance(opts);
  const php = async (code: string) => {
    const bootstrap = join(packageRoot(), 'scripts', 'sandbox', 'wp-cli-bootstrap.php');
    const { stdout } = await execFileAsync('php', [...phpCacheArgs(), '-r', `require ${JSON.stringify(bootstrap)}; ${code}`], {
      cwd: inst.wpDir,
      env: { ...process.env, CMS_SANDBOX_WP_DIR: inst.wpDir, CMS_SANDBOX_URL: creds.url },
    });
    return stdout;
  };
  const users = JSON.parse(
    await php(`echo json_encode(array_column(array_map(fn ($u) => ['l' => $u->user_login, 'i' => $u->ID], get_users(['blog_id' => 0])), 'i', 'l'));`),
  ) as Record<string, number>;
  const sites = Object.fromEntries((creds.network?.sites ?? []).map((s) => [s.slug, s.url]));
  const contexts = new Map<string, ToolContext>();
  return {
    url: creds.url,
    username: creds.username,
    appPassword: creds.appPassword,
    adminPassword: creds.adminPassword,
    sites,
    users,
    php,
    journalled(file: string) {
      return { ...createContext({ url: creds.url, username: creds.username, appPassword: creds.appPassword }, { journal: file }), network: true };
    },
    context(site = '') {
      const url = sites[site];
      if (!url) throw new Error(`no site "${site}" on the test network`);
      if (!contexts.has(site)) contexts.set(site, { ...createContext({ url, username: creds.username, appPassword: creds.appPassword }), network: true });
      return contexts.get(site) as ToolContext;
    },
  };
}

/** The network as WordPress itself says it: per login, super admin or not and the roles per site slug. */
export async function networkState(net: TestNetwork): Promise<Record<string, { super_admin: boolean; sites: Record<string, string[]> }>> {
  const out = await net.php(`
    $out = [];
    foreach (get_users(['blog_id' => 0]) as $u) {
      $sites = [];
      foreach (get_blogs_of_user($u->ID) as $b) {
        $slug = trim($b->path, '/') ?: 'main';
        switch_to_blog($b->userblog_id);
        $sites[$slug] = array_values((new WP_User($u->ID))->roles);
        restore_current_blog();
      }
      $out[$u->user_login] = ['super_admin' => is_super_admin($u->ID), 'sites' => $sites];
    }
    echo json_encode($out);`);
  return JSON.parse(out);
}

/** Post titles → author login on one site (slug), read from WordPress. */
export async function postAuthors(net: TestNetwork, slug: string): Promise<Record<string, string>> {
  const out = await net.php(`
    $site = get_sites(['path' => '/${slug}/', 'number' => 1])[0];
    switch_to_blog($site->blog_id);
    $out = [];
    foreach (get_posts(['numberposts' => -1, 'post_status' => 'any']) as $p) { $out[$p->post_title] = get_userdata($p->post_author)->user_login ?? 'none'; }
    echo json_encode($out);`);
  return JSON.parse(out);
}

/** Calls a tool as a client would, asking `approver` (recording every question) when the call needs a person. */
export async function callNetwork(
  context: ToolContext,
  tool: string,
  params: Record<string, unknown>,
  approver?: Approver,
): Promise<ToolOutcome> {
  const outcome = await invoke({ tool, params }, context, { network: context.network }, approver ? { approver } : {});
  recordOutput(JSON.stringify(outcome));
  if (!outcome.ok && outcome.error.code === 'internal_error') throw new Error(`Bug: ${outcome.error.message}`);
  return outcome;
}

/** An approver that says yes (or no) and keeps the questions it was asked. */
export function recordingApprover(approve = true): Approver & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  const approver = async (request: ApprovalRequest) => {
    asked.push(request);
    return approve ? ({ approved: true } as const) : ({ approved: false, reason: 'declined in the test' } as const);
  };
  return Object.assign(approver, { asked });
}
