import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestBin, cliArgs } from '../helpers/cli-bin.js';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * What `cms-admin invoke` loads (the start-up target of BENCHMARKS.md, issue #52.4), counted
 * instead of timed: the built CLI (the run's bundle, as it ships) started with a module hook that
 * writes down every module Node loads. A read loads invoke's own entry, a few chunks and the
 * vendored axios, with no LangChain, MCP SDK, OpenAI, express or pg in them; a call refused
 * before any request loads no axios and no node:http at all.
 */
const HOOK = `import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
registerHooks({
  load(url, context, next) {
    appendFileSync(process.env.CMS_TEST_LOADED, url + '\\n');
    return next(url, context);
  },
});
`;

let bin: string;
let remove: (() => void) | undefined;
let dir: string;

beforeAll(async () => {
  const [first] = cliArgs();
  if (first?.endsWith('cms-admin.js')) bin = first;
  else ({ bin, remove } = await buildTestBin()); // the sources through tsx: this is about the bundle
  dir = mkdtempSync(path.join(tmpdir(), 'cms-invoke-start-'));
  writeFileSync(path.join(dir, 'hook.mjs'), HOOK);
}, 240_000);

afterAll(() => remove?.());

/** Runs the built `cms-admin` with `args`: exit code, stdout and the modules it loaded (URLs, in order). */
function run(args: string[]): Promise<{ code: number | null; stdout: string; loaded: string[] }> {
  const log = path.join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', path.join(dir, 'hook.mjs'), bin, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, CMS_TEST_LOADED: log },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const loaded = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
      resolve({ code, stdout, loaded });
    });
  });
}

/** The loaded files of the bundle, relative to its folder (the folder of cli/ and vendor/). */
function bundleFiles(loaded: string[]): string[] {
  const root = path.dirname(path.dirname(bin));
  return loaded.filter((u) => u.startsWith('file:')).map((u) => path.relative(root, fileURLToPath(u)));
}

/** The npm packages whose code is in these files, from their source maps. */
function packagesIn(files: string[]): string[] {
  const root = path.dirname(path.dirname(bin));
  const packages = new Set<string>();
  for (const file of files.filter((f) => f.startsWith('cli/'))) {
    const { sources } = JSON.parse(readFileSync(path.join(root, `${file}.map`), 'utf8')) as { sources: string[] };
    for (const source of sources) {
      const inPackage = source.split('node_modules/').at(-1);
      if (inPackage === source || !inPackage) continue;
      const [scope, name] = inPackage.split('/');
      packages.add(scope?.startsWith('@') ? `${scope}/${name}` : (scope ?? ''));
    }
  }
  return [...packages].sort();
}

describe('cms-admin invoke start-up: what it loads', () => {
  it('a read: invoke-main.js, a few of its own chunks and the vendored axios; only zod, commander and entities bundled; no http2', async () => {
    const { code, stdout, loaded } = await run(['invoke', '{"tool":"list-taxonomies","params":{}}']);
    expect(code, stdout).toBe(0);
    expect(JSON.parse(stdout).ok).toBe(true);
    const files = bundleFiles(loaded);
    // Everything is the bundle's: nothing from node_modules, nothing from main.js's chunks.
    expect(files.filter((f) => f.startsWith('..'))).toEqual([]);
    expect(files).toContain('cli/invoke-main.js');
    expect(files).not.toContain('cli/main.js');
    expect(files.filter((f) => f.startsWith('cli/chunks/') && !f.startsWith('cli/chunks/invoke-'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('cli/')).length).toBeLessThanOrEqual(9);
    expect(files).toContain('vendor/axios.cjs');
    expect(packagesIn(files)).toEqual(['commander', 'entities', 'zod']);
    expect(loaded).toContain('node:http');
    expect(loaded).not.toContain('node:http2');
  });

  it('a call refused before any request (an unknown tool): no axios, no node:http or node:https', async () => {
    const { code, stdout, loaded } = await run(['invoke', '{"tool":"no-such-tool"}']);
    expect(code).toBe(2);
    expect(JSON.parse(stdout).error.code).toBe('unknown_tool');
    expect(bundleFiles(loaded)).not.toContain('vendor/axios.cjs');
    expect(loaded.filter((u) => /^node:https?$/.test(u))).toEqual([]);
    expect(packagesIn(bundleFiles(loaded))).toEqual(['commander', 'entities', 'zod']);
  });
});
