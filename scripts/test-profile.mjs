#!/usr/bin/env node
// npm run test:profile [-- <vitest args>]: the suite (or the files named) with CMS_TEST_PROFILE on
// (test/helpers/profile-files.ts), then where the time went: per file and summed, the worker's own
// CPU, its children's (CLIs, php -r, npm), its WordPress instance's php -S and MariaDB CPU, and the
// requests WordPress served. `--report <file.jsonl>` prints the table of an earlier run only.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
let file;
if (args[0] === '--report') file = args[1];
else {
  file = join(mkdtempSync(join(tmpdir(), 'cms-profile-')), 'files.jsonl');
  const run = spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit', env: { ...process.env, CMS_TEST_PROFILE: file } });
  if (run.status !== 0) console.log(`(the run exited ${run.status}; the table covers the files that finished)`);
}
const rows = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const cols = ['wall', 'self', 'children', 'php', 'db', 'requests'];
const total = Object.fromEntries(cols.map((c) => [c, rows.reduce((s, r) => s + r[c], 0)]));
const cpu = (r) => r.self + r.children + r.php + r.db;
rows.sort((a, b) => cpu(b) - cpu(a));
const s = (ms) => (ms / 1000).toFixed(1).padStart(7);
console.log(`\n${rows.length} files (${file}); seconds, requests\n${'cpu'.padStart(7)}${cols.map((c) => c.padStart(9)).join('')}  file`);
for (const r of rows.slice(0, Number(process.env.CMS_PROFILE_TOP) || 30))
  console.log(`${s(cpu(r))}${cols.map((c) => (c === 'requests' ? String(r[c]).padStart(9) : `  ${s(r[c])}`)).join('')}  ${r.file}`);
console.log(`${s(cpu(total))}${cols.map((c) => (c === 'requests' ? String(total[c]).padStart(9) : `  ${s(total[c])}`)).join('')}  all ${rows.length} files`);
