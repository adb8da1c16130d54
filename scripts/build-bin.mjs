// The `cms-admin` command as one bundle with everything it uses (dist/cli/cms-admin.js, with
// lazily loaded chunks for chat, mcp, site …): the CLI's own dependencies (langchain, the OpenAI
// SDK, the MCP SDK, express, commander, …) are not the library's, so an app that installs the
// toolkits does not install them (issue #35), and `npx cms-admin` from such an app still works.
// Node reads a few files instead of hundreds at start-up (BENCHMARKS.md). axios is the library's
// vendored copy (dist/vendor/axios.cjs, scripts/build-lib.mjs), found at run time.
// `node scripts/build-bin.mjs <folder>` builds the same bundle elsewhere: the test suite's global
// setup builds it once per run into a folder of its own (test/helpers/cli-bin.ts), so the tests'
// hundreds of CLI starts run what ships instead of the sources through tsx each time.
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { buildVendoredAxios } from './axios-load-patches.mjs';

/**
 * commander requires node:child_process (with net, dgram and their streams: ~7 ms of CPU, a
 * twentieth of `cms-admin invoke`'s start) at load, for `spawn` of executable subcommands, which
 * cms-admin has none of. The require moves into the call. A commander without this line fails the
 * build here: check whether it still loads child_process at start, then update or drop the patch.
 */
const commanderLazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const find = "const childProcess = require('node:child_process');";
      if (!source.includes(find)) throw new Error(`${args.path}: no ${find} to patch (scripts/build-bin.mjs)`);
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(find, lazy), loader: 'js' };
    });
  },
};

const outdir = process.argv[2] ? `${process.argv[2]}/cli` : 'dist/cli';
const options = {
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Class names stay readable in errors and in LangChain's serialisation (lc ids).
  keepNames: true,
  minifyWhitespace: true,
  minifySyntax: true,
  external: ['axios'],
  plugins: [commanderLazyChildProcess],
  // Bundled CommonJS (commander, express) requires Node's own modules.
  banner: { js: "import { createRequire as __cmsRequire } from 'node:module'; const require = __cmsRequire(import.meta.url);" },
};

// cms-admin.js (bin.ts: Node's compile cache on, then one of the two entries below).
await build({ ...options, entryPoints: { 'cms-admin': 'src/cli/bin.ts' }, splitting: false });

// main.js, every command but `invoke`: each command's modules in chunks loaded when it runs (chat,
// mcp, site …).
await build({
  ...options,
  entryPoints: { main: 'src/cli/main.ts' },
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
});

// `cms-admin invoke` starts invoke-main.js, built on its own: what every call loads is in it and
// a few chunks (7 files, against some thirty of main.js's chunks when it shared them), and what
// only some calls load (--sites, --format, the sandbox) in chunks of their own. It shares no
// module with main.js: a run loads one of the two. Not one file: esbuild would then wrap every
// module a dynamic import reaches in a function, which V8 compiles at every start (Node's compile
// cache keeps only what is compiled up front), slower than the chunks (BENCHMARKS.md, start-up).
await build({
  ...options,
  entryPoints: { 'invoke-main': 'src/cli/invoke-main.ts' },
  chunkNames: 'chunks/invoke-[name]-[hash]',
  splitting: true,
});

// The test suite's folder gets the vendored axios beside cli/ too, as dist/ has it from
// scripts/build-lib.mjs, so the tests' CLI runs the axios that ships.
if (process.argv[2]) await buildVendoredAxios(`${process.argv[2]}/vendor/axios.cjs`);
