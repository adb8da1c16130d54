// Used by scripts/build-lib.mjs for dist/vendor/axios.cjs (and test/unit/vendored-axios.test.ts).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

/**
 * Two top-level statements of axios's Node bundle load Node's undici (with its web streams and
 * worker_threads), the largest part of loading axios, for what the client never uses: the fetch
 * adapter's probe (`getFetch();`: the client uses the http adapter; the adapter's own getter runs
 * the probe when first used) and the global FormData read for `isFormData` (read at the first
 * call instead, after the plain-object check, so a JSON body never loads it). Same behaviour, a
 * third less `cms-admin invoke` start-up (BENCHMARKS.md). A new axios without these lines fails
 * the build here: check whether its load still touches them, then update or drop the patch.
 */
/**
 * Four more of axios's top-level requires load what a JSON request without a proxy never runs:
 * form-data (with mime-db's 200 kB table: multipart bodies), https-proxy-agent (with agent-base and
 * debug: HTTPS through a proxy), http2 (`httpVersion: 2`) and follow-redirects (with debug: only
 * when `maxRedirects` is not 0; the client's own requests send 0, its discovery's HEAD follows).
 * Each becomes a stand-in that requires the module at its first use (a property read, a call, a
 * `new`, an `instanceof`), so axios behaves the same and `cms-admin invoke` of a read starts
 * without them (BENCHMARKS.md, start-up). `typeof` of each stand-in is that of the module.
 */
const LAZY_HELPER = `
function __cmsLazy(load, target) {
  let loaded;
  const real = () => (loaded ??= load());
  return new Proxy(target, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    apply: (_, self, args) => Reflect.apply(real(), self, args),
    construct: (_, args, newTarget) => Reflect.construct(real(), args, newTarget === undefined ? real() : newTarget),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
`;
const lazyRequire = (name, module, kind) => ({
  find: `var ${name} = require('${module}');`,
  replace: `var ${name} = __cmsLazy(() => require('${module}'), ${kind === 'function' ? 'function () {}' : '{}'});`,
});

const AXIOS_PATCHES = [
  lazyRequire('FormData$1', 'form-data', 'function'),
  lazyRequire('HttpsProxyAgent', 'https-proxy-agent', 'function'),
  lazyRequire('http2', 'http2', 'object'),
  lazyRequire('followRedirects', 'follow-redirects', 'object'),
  {
    find: 'const {\n  http: httpFollow,\n  https: httpsFollow\n} = followRedirects;',
    replace: 'const httpFollow = __cmsLazy(() => followRedirects.http, {});\nconst httpsFollow = __cmsLazy(() => followRedirects.https, {});',
  },
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
        let source = `${await readFile(args.path, 'utf8')}${LAZY_HELPER}`;
        for (const { find, replace } of AXIOS_PATCHES) {
          const patched = typeof find === 'string' ? source.replace(find, () => replace) : source.replace(find, replace);
          if (patched === source) throw new Error(`${args.path}: no ${find} to patch (scripts/build-lib.mjs)`);
          source = patched;
        }
        return { contents: source, loader: 'js' };
      });
    },
  };
}

/**
 * dist/vendor/axios.cjs: axios's Node bundle with its dependencies in one CommonJS file, patched.
 * axios's own file is the entry, so its code is the file's top level (its dependencies are
 * wrapped, run when first required): Node's compile cache keeps what V8 compiles up front, not a
 * function compiled when first called, which a module esbuild wraps is (BENCHMARKS.md, start-up).
 */
export async function buildVendoredAxios(outfile) {
  await build({
    entryPoints: [createRequire(import.meta.url).resolve('axios')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    legalComments: 'eof',
    logLevel: 'warning',
    plugins: [axiosLoadPatches()],
  });
}
