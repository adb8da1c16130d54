// The library's CommonJS build and its vendored axios, after tsc has written the ESM build (dist/).
// - dist/cjs/: every module tsc emitted turned into CommonJS, one file each (not bundled, so each
//   class exists once), with a package.json saying "commonjs" and a copy of tsc's declarations,
//   which TypeScript then reads as CommonJS: a CommonJS app gets `require('@langchain/core/…')`
//   at run time and in its types, the same copy its own langchain uses (issue #35).
// - dist/vendor/axios.cjs: axios with its dependencies (follow-redirects, form-data, …) in one
//   file, so installing the toolkits does not install axios's ~30 packages (src/client/axios.ts).
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { buildVendoredAxios } from './axios-load-patches.mjs';

const src = 'src';
// The library's modules: those tsc emitted (tsconfig.build.json starts from the package's entries).
const modules = (await emitted('dist')).map((file) => path.join(src, file.replace(/\.js$/, '.ts')));

await build({
  entryPoints: modules,
  outdir: 'dist/cjs',
  outbase: src,
  bundle: false,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  // import() of our modules and optional peers (langgraph) becomes require(), so a CommonJS app
  // shares the CommonJS copy of each package with its own code.
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__cmsModuleUrl' },
  banner: { js: "const __cmsModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
await writeFile('dist/cjs/package.json', `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
await copyDeclarations('dist', 'dist/cjs');

await mkdir('dist/vendor', { recursive: true });
await buildVendoredAxios('dist/vendor/axios.cjs');

/** The .js files tsc wrote under dir, relative to it (the CommonJS build, the bin and vendor excluded). */
async function emitted(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const file = path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name));
    if (entry.isFile() && file.endsWith('.js') && !/^(cjs|cli|vendor)\//.test(file)) out.push(file);
  }
  return out;
}

/** tsc's .d.ts files of the ESM build, copied beside the CommonJS modules. */
async function copyDeclarations(from, to) {
  for (const file of await emitted(from)) {
    const declaration = file.replace(/\.js$/, '.d.ts');
    await mkdir(path.dirname(path.join(to, declaration)), { recursive: true });
    await copyFile(path.join(from, declaration), path.join(to, declaration));
  }
}
