import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { recordOutput } from '../helpers/output-log.js';
import { printedPattern, readmeCommands } from '../helpers/readme-commands.js';
import { readmePorts } from '../helpers/ports.js';
import { testSite } from '../helpers/site.js';
import { restoreSeeded } from '../evals/helpers.js';

// README.md's shell commands, in order, as written, in a fresh copy of the checkout (its tracked
// files; node_modules linked) against the freshly seeded test site, given as the environment a
// `site env >> .env` would give. Skipped, and why: each SKIP's reason.
const SKIP: Array<[RegExp, string]> = [
  [/^npm install$/, 'the copy links this checkout’s node_modules: installing again needs the network'],
  [/^npm pack/, 'builds and packs the checkout: test/package/pack.test.ts packs it once per run and installs the tarball as the README says'],
  [/^npm install \/path\/to\//, 'installs the tarball into an app of yours: test/package/pack.test.ts runs the README’s install lines, paths filled in'],
  [/^npm start/, 'stays running (the chat, or without a model the tool shell): test/cli/tool-shell-jobs.test.ts'],
  [/^npm test/, 'the whole suite, which this test is part of'],
  [/^sudo apt-get/, 'installs system packages: the sandbox’s PHP and MariaDB are here already'],
  [/--backend playground/, 'downloads the Playground CLI (~580 MB): `npm run check:playground` proves it'],
  [/OPENAI_API_KEY=/, 'needs a model'],
  [/^npm run eval/, 'runs every eval case on the eval sandbox (port 8940): test/evals'],
  [/site down --name eval/, 'would stop an eval sandbox another run may be using'],
];

const clone = mkdtempSync(path.join(tmpdir(), 'cms-readme-'));
const instance = process.env.CMS_TEST_SANDBOX ?? 'test';
const ports = readmePorts();
/** The versions example's instances and ports, moved beside the test instance's own: +70/+75 clear the other workers' sites (consecutive ports) and the fleet tests' (+60/+64). */
const moved: Array<[RegExp, string]> = [
  [/--name a\b/, `--name ${instance}-readme-a`],
  [/--name b\b/, `--name ${instance}-readme-b`],
  [/--port 8891\b/, `--port ${ports.a}`],
  [/--port 8892\b/, `--port ${ports.b}`],
];

beforeAll(() => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  execFileSync('cp', ['--parents', '-t', clone, ...files], { cwd: REPO_ROOT });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(clone, 'node_modules'));
});

afterAll(() => {
  for (const name of ['a', 'b']) run(`npx cms-admin site down --name ${instance}-readme-${name}`);
  rmSync(clone, { recursive: true, force: true });
});

function run(line: string) {
  const site = testSite();
  const env: NodeJS.ProcessEnv = { ...process.env, CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, NO_COLOR: '1' };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'CMS_AGENT_MODEL', 'CMS_JOURNAL']) delete env[key];
  env.CMS_JOURNAL = path.join(clone, 'changes.jsonl');
  const result = spawnSync('bash', ['-c', line], { cwd: clone, env, encoding: 'utf8', timeout: 600_000 });
  recordOutput(`${result.stdout}${result.stderr}`);
  return result;
}

it('every command of README.md runs as written on a freshly seeded site, in order', async () => {
  // Freshly seeded: earlier files on this worker's site changed it (the README's answers name ids).
  await restoreSeeded();
  const commands = readmeCommands(path.join(clone, 'README.md'));
  expect(commands.length).toBeGreaterThan(10);
  const ran: string[] = [];
  for (const command of commands) {
    if (SKIP.some(([pattern]) => pattern.test(command.line))) continue;
    const line = moved.reduce((l, [from, to]) => l.replace(from, to), command.line);
    const result = run(line);
    // The message names the README line and its stderr (vitest folds objects in its diff).
    expect(result.status, `${line}\n${result.stderr.slice(-2000)}`).toBe(0);
    for (const printed of command.prints) expect(result.stdout).toMatch(printedPattern(printed));
    ran.push(line);
  }
  // The build, the versions example, the envelope examples: each ran.
  expect(ran).toEqual(
    expect.arrayContaining([expect.stringMatching(/^npm run build/), expect.stringMatching(/^npx cms-admin invoke --dry-run/)]),
  );
}, 1_500_000);

it('README and `plugin --help` name the same tools as needing the companion plugin', () => {
  const readme = /The user tools\s+([\s\S]*?)need the small companion plugin/.exec(
    readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'),
  )?.[1];
  const help = run('npx cms-admin plugin --help').stdout;
  const named = (text: string) => [...text.matchAll(/`?([a-z]+(?:-[a-z]+)+)`?/g)].map((m) => m[1]).sort();
  const said = /The user tools ([\s\S]*?)need this plugin/.exec(help)?.[1] ?? '';
  expect(named(readme ?? '')).toEqual(named(said));
  expect(named(said).length).toBeGreaterThan(4);
});
