// The `cms-admin` command as one bundle of this package's own modules (dist/cli/cms-admin.js, with
// lazily loaded chunks for chat, mcp, site …): Node then reads a few files instead of ~160, about
// a quarter of `cms-admin invoke`'s start-up (BENCHMARKS.md). Small pure-JS dependencies (zod,
// commander, entities) go in too; the large ones stay packages, loaded from node_modules when a
// command needs them. The library's entries (dist/index.js, …) are tsc's output, unbundled.
import { build } from 'esbuild';

await build({
  entryPoints: { 'cms-admin': 'src/cli/bin.ts' },
  outdir: 'dist/cli',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: ['@langchain/*', '@modelcontextprotocol/*', 'axios', 'express', 'langchain', 'yaml', 'fflate'],
  // Bundled CommonJS (commander) requires Node's own modules.
  banner: { js: "import { createRequire as __cmsRequire } from 'node:module'; const require = __cmsRequire(import.meta.url);" },
});
