/**
 * `npm run bench:network`: list-users with `network: true` over a sandbox network of 5,000
 * accounts on 50 sites (CMS_BENCH_NETWORK instance, default `bench-net`, port
 * CMS_BENCH_NETWORK_PORT or 8960; grown by network-users.php, restored after): the pages the
 * tool answers when a client follows next_cursor to the end, with requests, tokens and time.
 * Prints a Markdown table for BENCHMARKS.md.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getEncoding } from 'js-tiktoken';
import { invoke } from '../../src/call/index.js';
import { createContext } from '../../src/config.js';
import { packageRoot, resolveInstance, siteReset, siteUp } from '../../src/sandbox/index.js';

const SITES = 50;
const USERS = 5000;
const opts = {
  name: process.env.CMS_BENCH_NETWORK || 'bench-net',
  port: Number(process.env.CMS_BENCH_NETWORK_PORT || 8960),
  multisite: true,
  log: (line: string) => console.error(`[bench:network] ${line}`),
};

const creds = await siteUp(opts);
const inst = resolveInstance(opts);
const grow = await promisify(execFile)('php', ['-d', 'memory_limit=1G', join(packageRoot(), 'scripts', 'bench', 'network-users.php')], {
  cwd: inst.wpDir,
  env: { ...process.env, CMS_SANDBOX_WP_DIR: inst.wpDir, CMS_SANDBOX_URL: creds.url, CMS_BENCH_SITES: String(SITES), CMS_BENCH_USERS: String(USERS) },
});
console.error(`[bench:network] network: ${grow.stdout.trim()}`);

const context = { ...createContext(creds), network: true };
let requests = 0;
const request = context.client.request.bind(context.client);
context.client.request = (req) => {
  requests += 1;
  return request(req);
};
await context.client.connect();
requests = 0;
const encoder = getEncoding('o200k_base');
const pages: Array<{ items: number; tokens: number; chars: number; ms: number }> = [];
let cursor: string | undefined;
const started = performance.now();
for (let page = 0; page < 1000; page++) {
  const t = performance.now();
  const out = await invoke({ tool: 'list-users', params: { network: true, ...(cursor ? { cursor } : {}) } }, context, { network: true });
  if (!out.ok) throw new Error(JSON.stringify(out.error));
  const text = JSON.stringify(out);
  const result = out.result as { items: unknown[]; next_cursor: string | null };
  pages.push({ items: result.items.length, tokens: encoder.encode(text).length, chars: text.length, ms: Math.round(performance.now() - t) });
  if (!result.next_cursor) break;
  cursor = result.next_cursor;
}
const total = Math.round(performance.now() - started);
const listed = pages.reduce((a, p) => a + p.items, 0);
const maxTokens = Math.max(...pages.map((p) => p.tokens));
const maxChars = Math.max(...pages.map((p) => p.chars));
const median = [...pages.map((p) => p.ms)].sort((a, b) => a - b)[Math.floor(pages.length / 2)];
console.log(`| accounts listed | pages | requests (plugin + index) | largest page | median page | all pages |`);
console.log(`|---|---|---|---|---|---|`);
console.log(`| ${listed} on ${SITES} sites | ${pages.length} (${pages[0]?.items} a page) | ${requests} | ${maxTokens} tokens, ${maxChars} chars | ${median} ms | ${(total / 1000).toFixed(1)} s |`);
await siteReset(opts);
