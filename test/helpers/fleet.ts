import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readCredentials, siteDown, siteStatus, siteUp } from '../../src/sandbox/index.js';
import { WordPressClient } from '../../src/client/index.js';
import { recordSecret } from './output-log.js';
import { inject } from 'vitest';
import { testSandbox, workerIndex } from './sandboxes.js';
import { testSite } from './site.js';

/**
 * A fleet for the fleet tests (issue #38): the suite's own sandbox plus two more instances —
 * one on the suite's WordPress, one on 6.1 — named after the worker's site port, on ports after
 * it (sandboxes.ts fleetOptions; CMS_TEST_FLEET overrides: `name:port:wp,name:port:wp`). They are
 * started (and seeded once, at install) when not running and stay up for the worker's next fleet
 * file; global teardown stops them (CMS_TEST_FLEET's: `stop()`, if this file started them).
 */
export interface FleetSite {
  name: string;
  url: string;
  username: string;
  appPassword: string;
  wp: string;
  /** Its sandbox instance (the eval harness restores its seeded snapshot). */
  sandbox: { home: string; name: string; port: number };
}

export interface Fleet {
  sites: FleetSite[];
  /** A site's own client, for reading its state back (not through the code under test). */
  client(name: string): WordPressClient;
  /** A config folder of its own: XDG_CONFIG_HOME for the CLI runs. */
  configHome: string;
  /** The environment a CLI run needs: no CMS_URL (profiles only), the temp config folder. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** The two extra instances: CMS_TEST_FLEET's (`name:port:wp,…`, stopped by `stop()` if it started them), else this worker's, which global setup named and its teardown stops. */
function extraInstances(): { own: boolean; instances: Array<{ name: string; port: number; wp: string }> } {
  const spec = process.env.CMS_TEST_FLEET;
  if (spec) {
    const instances = spec.split(',').map((part) => {
      const [name, port, wp] = part.split(':');
      return { name: name as string, port: Number(port), wp: wp || '7.1' };
    });
    return { own: true, instances };
  }
  const instances = inject('fleets')[workerIndex() - 1];
  if (!instances) throw new Error('The fleet sandboxes are not named: run the tests through vitest (global setup names them).');
  return { own: false, instances };
}

export async function startFleet(): Promise<Fleet> {
  const home = process.env.CMS_SANDBOX_HOME as string;
  const main = testSite();
  const own = testSandbox();
  const sites: FleetSite[] = [
    { name: 'one', ...main, wp: process.env.CMS_TEST_WORDPRESS ?? '?', sandbox: { home: own.home, name: own.name, port: own.port } },
  ];
  const started: Array<{ name: string }> = [];
  const names = ['two', 'three'];
  const { own: stopsItself, instances } = extraInstances();
  // Both at once: each start is mostly waiting on MariaDB and PHP (docs/testing.md). A worker's
  // later fleet files find them up.
  const extra = await Promise.all(
    instances.map(async (inst, i) => {
      const opts = { home, name: inst.name, port: inst.port, wp: inst.wp, log: () => undefined };
      const status = await siteStatus(opts);
      if (!status.running) started.push(inst);
      await siteUp({ ...opts, seed: !status.seeded });
      const creds = await readCredentials(opts);
      if (!creds) throw new Error(`The fleet sandbox ${inst.name} has no credentials.`);
      recordSecret(creds.appPassword);
      recordSecret(creds.appPassword.replace(/\s+/g, ''));
      recordSecret(Buffer.from(`${creds.username}:${creds.appPassword}`).toString('base64'));
      return {
        name: names[i] ?? inst.name,
        url: creds.url,
        username: creds.username,
        appPassword: creds.appPassword,
        wp: inst.wp,
        sandbox: { home, name: inst.name, port: inst.port },
      };
    }),
  );
  sites.push(...extra);
  const clients = new Map<string, WordPressClient>();
  const configHome = mkdtempSync(path.join(tmpdir(), 'cms-fleet-config-'));
  return {
    sites,
    configHome,
    client(name) {
      const site = sites.find((s) => s.name === name);
      if (!site) throw new Error(`no fleet site ${name}`);
      if (!clients.has(name)) clients.set(name, new WordPressClient(site));
      return clients.get(name) as WordPressClient;
    },
    env: (extra = {}) => ({
      CMS_URL: undefined,
      CMS_USERNAME: undefined,
      CMS_APP_PASSWORD: undefined,
      CMS_SITE: undefined,
      XDG_CONFIG_HOME: configHome,
      ...extra,
    }),
    async stop() {
      // This worker's fleet stays up for its next fleet file; global teardown stops it.
      if (!stopsItself || process.env.CMS_KEEP_SANDBOX === '1') return;
      for (const inst of started) await siteDown({ home, name: inst.name, log: () => undefined });
    },
  };
}
