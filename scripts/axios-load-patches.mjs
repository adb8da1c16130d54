// Used by scripts/build-lib.mjs for dist/vendor/axios.cjs.
import { readFile } from 'node:fs/promises';

/**
 * Two top-level statements of axios's Node bundle load Node's undici (with its web streams and
 * worker_threads), the largest part of loading axios, for what the client never uses: the fetch
 * adapter's probe (`getFetch();`: the client uses the http adapter; the adapter's own getter runs
 * the probe when first used) and the global FormData read for `isFormData` (read at the first
 * call instead, after the plain-object check, so a JSON body never loads it). Same behaviour, a
 * third less `cms-admin invoke` start-up (BENCHMARKS.md). A new axios without these lines fails
 * the build here: check whether its load still touches them, then update or drop the patch.
 */
const AXIOS_PATCHES = [
  { find: /^getFetch\(\);$/m, replace: '' },
  {
    find: "const FormDataCtor = typeof G.FormData !== 'undefined' ? G.FormData : undefined;",
    replace: "let formDataCtor; const FormDataCtor = () => (formDataCtor ??= typeof G.FormData !== 'undefined' ? G.FormData : null);",
  },
  {
    find: / {2}if \(FormDataCtor && thing instanceof FormDataCtor\) return true;\n( {2}\/\/[^\n]*\n {2}const proto = getPrototypeOf\(thing\);\n {2}if \(!proto \|\| proto === Object\.prototype\) return false;\n)/,
    replace: '$1  if (FormDataCtor() && thing instanceof FormDataCtor()) return true;\n',
  },
];

/** The esbuild plugin that applies them to axios's Node bundle. */
export function axiosLoadPatches() {
  return {
    name: 'axios-load-patches',
    setup(build) {
      build.onLoad({ filter: /axios[\\/]dist[\\/]node[\\/]axios\.cjs$/ }, async (args) => {
        let source = await readFile(args.path, 'utf8');
        for (const { find, replace } of AXIOS_PATCHES) {
          const patched = source.replace(find, replace);
          if (patched === source) throw new Error(`${args.path}: no ${find} to patch (scripts/build-lib.mjs)`);
          source = patched;
        }
        return { contents: source, loader: 'js' };
      });
    },
  };
}
