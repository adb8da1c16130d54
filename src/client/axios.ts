import { createRequire } from 'node:module';
import type { AxiosStatic } from 'axios';

/**
 * axios as its Node bundle (`dist/node/axios.cjs`, what `require('axios')` gives), not its ESM
 * sources, which an `import` resolves to: one file instead of about sixty, a third less time to
 * load, and axios is the largest part of `cms-admin invoke`'s start-up (BENCHMARKS.md). The same
 * package and version; only `import type` from 'axios' elsewhere.
 */
export const axios: AxiosStatic = createRequire(import.meta.url)('axios');
