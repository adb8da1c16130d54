import { createRequire } from 'node:module';
import type { AxiosStatic } from 'axios';

const require = createRequire(import.meta.url);

let loaded: AxiosStatic | undefined;

/**
 * axios as one CommonJS file, loaded on first use: a call rejected before any request (bad
 * envelope, `--help`) never pays for it and for the Node modules it requires (http2, zlib, tls:
 * about a third of `cms-admin invoke`'s start, BENCHMARKS.md). In the package that is
 * dist/vendor/axios.cjs, axios with its dependencies bundled by scripts/build-lib.mjs, so
 * installing the toolkits does not install axios's ~30 packages (issue #35); from dist/ it is one
 * folder up, from dist/cjs/ two. From the sources (tsx, tests) it is axios's own Node bundle
 * (`dist/node/axios.cjs`, what `require('axios')` gives): one file instead of its ~60 ESM
 * sources. The same version either way (package-lock.json); only `import type` from 'axios' elsewhere.
 */
export function axios(): AxiosStatic {
  loaded ??= load();
  return loaded;
}

function load(): AxiosStatic {
  for (const vendored of ['../vendor/axios.cjs', '../../vendor/axios.cjs']) {
    try {
      return require(vendored);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    }
  }
  return require('axios');
}
