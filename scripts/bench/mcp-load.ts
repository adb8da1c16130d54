/**
 * `npm run bench:mcp` (#61): the MCP server under load, each beside its floor in the same run —
 *   - tools/list per second at 1, 8 and 32 clients (each its own session of `cms-admin mcp --http`,
 *     protocol 2025-11-25), beside a bare Node server answering every POST with the same bytes;
 *   - a read (tools/call get-cms-tags, 20 tags) per second at 1, 8 and 32 clients, beside the same
 *     read from WordPress's REST API directly;
 *   - the WordPress requests of one `cms-admin invoke` of a read, counted at a proxy.
 * The server and the floor run in processes of their own (the built bin: `npm run build` first
 * unless dist/ has it); CPU is theirs, from /proc. Writes the "MCP under load" section.
 *
 *   npm run bench:mcp [-- --seconds 5 --clients 1,8,32]
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { packageRoot, siteSeed, siteUp } from '../../src/sandbox/index.js';
import { FaultProxy } from '../../test/helpers/fault-proxy.js';
import { BENCHMARKS, benchInstance, credentialsOf } from './bench-site.js';
import { freePort, type Load, load, node, openSession, post } from './mcp-client.js';
import { replaceSection } from './sections.js';

export const BEGIN = '<!-- mcp-load:begin -->';
export const END = '<!-- mcp-load:end -->';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

function bin(): string {
  const file = join(packageRoot(), 'dist', 'cli', 'cms-admin.js');
  if (!existsSync(file)) throw new Error('dist/cli/cms-admin.js is missing: npm run build first');
  return file;
}

/** A bare Node server answering every POST with `body` (the same bytes the MCP server sent). */
const BARE = `const http = require('node:http');
const body = Buffer.from(process.env.BODY, 'base64');
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': process.env.TYPE }); res.end(body); }); });
server.keepAliveTimeout = 60000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stderr.write('ready\\n'));`;

interface Row {
  what: string;
  clients: number;
  ours: Load;
  floor: Load;
}

export async function mcpSection(options: { seconds?: number; clients?: number[] } = {}): Promise<string> {
  const seconds = options.seconds ?? 5;
  const clients = options.clients ?? [1, 8, 32];
  const site = benchInstance('bench:mcp', { name: 'bench-mcp', nameVar: 'CMS_BENCH_MCP', port: 8937, portVar: 'CMS_BENCH_MCP_PORT' });
  await siteUp(site);
  await siteSeed({ ...site, log: () => {} });
  const creds = await credentialsOf(site);
  const siteEnv = { CMS_URL: creds.url, CMS_USERNAME: creds.username, CMS_APP_PASSWORD: creds.appPassword, CMS_JOURNAL: 'off' };
  const port = await freePort();
  const server = await node([bin(), 'mcp', '--http', '--auth', 'none', '--port', String(port)], siteEnv, /serving MCP/);
  const url = `http://127.0.0.1:${port}/mcp`;
  const rows: Row[] = [];
  try {
    const probe = await openSession(url);
    const listed = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, probe);
    const barePort = await freePort();
    const bare = await node(['-e', BARE], { BODY: listed.body.toString('base64'), TYPE: listed.type, PORT: String(barePort) }, /ready/);
    try {
      for (const n of clients) {
        const sessions = await Promise.all(Array.from({ length: n }, () => openSession(url)));
        const ours = await load(sessions.map((s) => () => post(url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, s)), seconds, server.pid);
        const floor = await load(sessions.map(() => () => post(`http://127.0.0.1:${barePort}/`, { jsonrpc: '2.0', id: 3, method: 'tools/list' })), seconds, bare.pid);
        rows.push({ what: `tools/list (${listed.body.length.toLocaleString('en')} bytes)`, clients: n, ours, floor });
        site.log(`tools/list, ${n} clients: ${ours.perSecond.toFixed(0)}/s against ${floor.perSecond.toFixed(0)}/s`);
      }
    } finally {
      bare.kill();
    }
    const rest = new URL('/wp-json/wp/v2/tags?per_page=20&_fields=id,name,slug,count', creds.url).toString();
    const auth = `Basic ${Buffer.from(`${creds.username}:${creds.appPassword}`).toString('base64')}`;
    for (const n of clients) {
      const sessions = await Promise.all(Array.from({ length: n }, () => openSession(url)));
      const call = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get-cms-tags', arguments: { limit: 20 } } };
      const ours = await load(sessions.map((s) => () => post(url, call, s)), seconds, server.pid);
      const floor = await load(sessions.map(() => () => post(rest, undefined, undefined, auth)), seconds);
      rows.push({ what: 'a read: get-cms-tags, 20 tags (floor: the same GET to WordPress)', clients: n, ours, floor });
      site.log(`read, ${n} clients: ${ours.perSecond.toFixed(1)}/s against ${floor.perSecond.toFixed(1)}/s`);
    }
  } finally {
    server.kill();
  }
  const invoke = await invokeRequests(siteEnv);
  return render(rows, invoke, seconds);
}

/** WordPress requests of one `cms-admin invoke` of a read, counted at a proxy in front of the site. */
async function invokeRequests(env: Record<string, string>): Promise<string[]> {
  const proxy = await new FaultProxy(env.CMS_URL as string).start();
  try {
    await node([bin(), 'invoke', '{"tool":"get-cms-categories"}'], { ...env, CMS_URL: proxy.url });
    return proxy.events.map((e) => `${e.method} ${e.path.replace(/\?.*/, '')}`);
  } finally {
    await proxy.stop();
  }
}

function render(rows: Row[], invoke: string[], seconds: number): string {
  const f = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const cpu = (l: Load) => (l.cpuMsPerRequest === undefined ? '—' : `${l.cpuMsPerRequest.toFixed(2)} ms`);
  return [
    BEGIN,
    '## MCP under load, and `invoke` (issue #61)',
    '',
    `Produced by \`npm run bench:mcp\` on ${new Date().toISOString().slice(0, 10)} (${cpus().length} cores; 1-minute load average ${loadavg()[0]?.toFixed(1)} at the end): \`cms-admin mcp --http --auth none\` (the built bin, protocol 2025-11-25, one session a client, default toolsets) against its floor in the same run, each client sending its next request when the last is answered, ${seconds} s a row. CPU: the server process's (not the client's) per request answered. Target (#61): ≥ 1,000 tools/list per second at 32 clients on this machine.`,
    '',
    '| request | clients | ours, per second | floor, per second | ours / floor | CPU a request, ours | floor |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.what} | ${r.clients} | **${f(r.ours.perSecond)}** | ${f(r.floor.perSecond)} | ${(r.ours.perSecond / r.floor.perSecond).toFixed(2)}× | ${cpu(r.ours)} | ${cpu(r.floor)} |`),
    '',
    `\`cms-admin invoke '{"tool":"get-cms-categories"}'\`: **${invoke.length} WordPress request${invoke.length === 1 ? '' : 's'}** (${invoke.join(', ')}), counted at a proxy; before #61, 2 (\`GET /wp/v2/users/me\` first).`,
    END,
  ].join('\n');
}

async function main() {
  const section = await mcpSection({ seconds: Number(arg('--seconds', '5')), clients: arg('--clients', '1,8,32').split(',').map(Number) });
  await replaceSection(BENCHMARKS, BEGIN, END, section);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
