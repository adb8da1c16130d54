/**
 * CI step for the Playground backend: `npm run check:playground` brings up a seeded sandbox on
 * WordPress Playground (instance `pg-check`, port $CMS_PLAYGROUND_PORT or 8881, WordPress
 * $CMS_SANDBOX_WP or the default), then through `cms-admin invoke`, as a user would: every
 * read-only tool of the registry, and a create/delete round trip read back from the site
 * directly. Exits 1 on the first failure; prints no secret.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mailLogPath, packageRoot, readMailLog, siteDown, siteStatus, siteUp } from '../../src/sandbox/index.js';
import { selectTools, tools } from '../../src/call/index.js';

const opts = {
  name: 'pg-check',
  port: Number(process.env.CMS_PLAYGROUND_PORT || 8881),
  backend: 'playground',
  wp: process.env.CMS_SANDBOX_WP,
  log: (line: string) => console.error(`[playground] ${line}`),
};

const creds = await siteUp({ ...opts, seed: true });
const env = { ...process.env, CMS_URL: creds.url, CMS_USERNAME: creds.username, CMS_APP_PASSWORD: creds.appPassword };
const auth = `Basic ${Buffer.from(`${creds.username}:${creds.appPassword}`).toString('base64')}`;
let failed = 0;

/** Params for the read tools that need some, on the seeded site (user 1 is the admin). */
const READ_EXAMPLES: Record<string, { params: object; mayBeEmpty?: boolean }> = {
  'list-terms': { params: { taxonomy: 'genre' } },
  // The admin's application password made by siteUp is listed.
  'list-app-passwords': { params: { user_id: 1 } },
  // Calls with an application password open no login session: an empty list is right.
  'list-user-sessions': { params: { user_id: 1 }, mayBeEmpty: true },
  // A new site's change journal is empty; the round trip below checks it holds its two writes.
  'list-changes': { params: {}, mayBeEmpty: true },
  // The seeded tags have no near-duplicates: an empty list of groups is right.
  'find-duplicate-terms': { params: { taxonomy: 'post_tag' }, mayBeEmpty: true },
  // Every author and above can edit posts: the admin at least.
  'find-users-with-capability': { params: { capability: 'edit_posts' } },
  // WordPress 6.9+ registers this core ability (read-only) on every site.
  'describe-ability': { params: { name: 'core/get-site-info' } },
};

async function invoke(envelope: object): Promise<{ ok: boolean; result?: any; error?: any }> {
  const started = performance.now();
  const cli = join(packageRoot(), 'src', 'cli', 'main.ts');
  const res = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli, 'invoke', JSON.stringify(envelope)], {
    env,
    cwd: packageRoot(),
    maxBuffer: 10 * 1024 * 1024,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const outcome = JSON.parse(res.stdout || '{"ok":false,"error":{"message":"no output"}}');
  const ms = Math.round(performance.now() - started);
  console.log(`${outcome.ok ? 'ok  ' : 'FAIL'} ${JSON.stringify(envelope)} (${ms} ms)${outcome.ok ? '' : ` ${JSON.stringify(outcome.error)}`}`);
  if (!outcome.ok) failed++;
  return outcome;
}

async function siteGet(path: string): Promise<number> {
  const res = await fetch(`${creds.url}/wp-json${path}`, { headers: { authorization: auth } });
  await res.arrayBuffer();
  return res.status;
}

try {
  const status = await siteStatus(opts);
  console.log(`WordPress ${status.wordpress} on ${status.backend} at ${status.url}`);
  // The read tools one site offers (the network's and the fleet's list-sites need a network or several sites).
  for (const tool of selectTools(tools, { readOnly: true })) {
    // A read tool with required params is called with an example; one without an example here
    // fails (with its error naming the missing param), so a new tool gets one.
    const example = READ_EXAMPLES[tool.name];
    const out = await invoke(example ? { tool: tool.name, params: example.params } : { tool: tool.name });
    const items = out.result?.items ?? out.result;
    if (out.ok && Array.isArray(items) && items.length === 0 && !example?.mayBeEmpty) {
      console.log(`FAIL ${tool.name} answered no items on a seeded site`);
      failed++;
    }
  }
  // The companion plugin is loaded and wp_mail() is captured, as on the native sandbox.
  const index = await fetch(`${creds.url}/wp-json/`).then((r) => r.json() as Promise<{ namespaces: string[] }>);
  console.log(`${index.namespaces.includes('cms-admin/v1') ? 'ok  ' : 'FAIL'} companion plugin routes (cms-admin/v1)`);
  if (!index.namespaces.includes('cms-admin/v1')) failed++;
  const mailsBefore = (await readMailLog(opts)).length;
  await invoke({ tool: 'reset-user-password', params: { id: 2 } });
  const mailed = (await readMailLog(opts)).length > mailsBefore;
  console.log(`${mailed ? 'ok  ' : 'FAIL'} reset email captured in ${mailLogPath(opts)}`);
  if (!mailed) failed++;

  const name = `Playground check ${Date.now().toString(36)}`;
  const created = await invoke({ tool: 'create-category', params: { name } });
  const id = created.result?.id;
  if (!(created.ok && (await siteGet(`/wp/v2/categories/${id}`)) === 200)) {
    console.log('FAIL the created category is not on the site');
    failed++;
  }
  await invoke({ tool: 'delete-category', params: { id } });
  if ((await siteGet(`/wp/v2/categories/${id}`)) !== 404) {
    console.log('FAIL the deleted category is still on the site');
    failed++;
  }
  // invoke journals every write by default: the newest two changes are this round trip's.
  const changes = await invoke({ tool: 'list-changes', params: { limit: 2 } });
  const journalled = (changes.result?.items ?? []).map((item: { tool: string }) => item.tool).join(',');
  if (journalled !== 'delete-category,create-category') {
    console.log(`FAIL the change journal's newest changes are [${journalled}], not the delete and the create`);
    failed++;
  }
} finally {
  if (process.env.CMS_KEEP_SANDBOX !== '1') await siteDown(opts);
}
console.log(failed ? `playground check: ${failed} failure(s)` : 'playground check: all passed');
process.exitCode = failed ? 1 : 0;
