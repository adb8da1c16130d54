import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script (plain .mjs, no declarations)
import { buildVendoredAxios } from '../../scripts/axios-load-patches.mjs';

/**
 * dist/vendor/axios.cjs as scripts/build-lib.mjs builds it: loading it starts none of what a JSON
 * request without a proxy never runs (http2, form-data, https-proxy-agent, follow-redirects), and
 * each still works when first used (BENCHMARKS.md, start-up). Each check runs in a new Node.
 */
let bundle: string;
beforeAll(async () => {
  bundle = path.join(mkdtempSync(path.join(tmpdir(), 'cms-vendored-axios-')), 'axios.cjs');
  await buildVendoredAxios(bundle);
}, 120_000);

/** The JSON that `script` prints, run in a new Node with `axios` the bundle. */
function inNode(script: string): unknown {
  const out = execFileSync(process.execPath, ['-e', `const axios = require(${JSON.stringify(bundle)}); ${script}`], {
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

const builtins = 'process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice(13))';

describe('the vendored axios', () => {
  it('loads without http2 and without the debug module of follow-redirects and https-proxy-agent (tty)', () => {
    const loaded = inNode(`console.log(JSON.stringify(${builtins}))`) as string[];
    expect(loaded).toContain('http');
    expect(loaded).not.toContain('http2');
    expect(loaded).not.toContain('tty');
  });

  it('still builds a multipart body (form-data, loaded then)', () => {
    const result = inNode(
      `const form = axios.toFormData({ name: 'News' }); const before = ${builtins};` +
        `console.log(JSON.stringify({ boundary: typeof form.getBoundary === 'function' && /^-+[0-9a-f]{24}$/.test(form.getBoundary()), isForm: axios.isAxiosError(form) === false && form instanceof require('node:stream').Stream, http2: before.includes('http2') }))`,
    );
    expect(result).toEqual({ boundary: true, isForm: true, http2: false });
  });

  it('an http2 request loads http2 then (the option still works)', () => {
    const result = inNode(
      `axios.get('http://127.0.0.1:9/', { httpVersion: 2, timeout: 2000 }).catch((err) => console.log(JSON.stringify({ http2: ${builtins}.includes('http2'), code: err.code })))`,
    );
    expect(result).toMatchObject({ http2: true });
  });
});
