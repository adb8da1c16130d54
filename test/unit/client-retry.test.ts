import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordPressClient, WordPressError } from '../../src/client/index.js';

// A tiny server that fails the first N requests of each route: this tests the client's retry
// mechanics, not WordPress behaviour (that is covered against the real site).
let server: http.Server;
let url = '';
const seen = new Map<string, number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (req.url?.includes('flaky') && n <= 2) {
      res.writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'busy', message: 'try later' }));
      return;
    }
    if (req.url?.includes('reset') && n <= 1) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: n }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => new WordPressClient({ url, username: 'u', appPassword: 'p', retry: { baseDelayMs: 1 } });

describe('client retries', () => {
  it('retries an idempotent GET on 503 and succeeds', async () => {
    const c = client();
    expect(await c.get('/flaky/get')).toEqual({ ok: 3 });
    expect(c.stats).toEqual({ requests: 3, retries: 2 });
  });

  it('retries a GET after a connection reset', async () => {
    const c = client();
    expect(await c.get('/reset/get')).toEqual({ ok: 2 });
    expect(c.stats.retries).toBe(1);
  });

  it('never repeats a POST: the first 503 is the answer', async () => {
    const c = client();
    const error = await c.post('/flaky/post', { a: 1 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(WordPressError);
    expect((error as WordPressError).status).toBe(503);
    expect(c.stats).toEqual({ requests: 1, retries: 0 });
  });

  it('reports each item of a batch whose request failed as a whole', async () => {
    const c = client();
    seen.clear();
    const results = await c.batch([{ path: '/wp/v2/posts/1' }, { path: '/wp/v2/posts/2' }]);
    // The fake server answers 200 with no `responses`: each item must still get a result.
    expect(results).toHaveLength(2);
    expect(results.every((r) => !r.ok)).toBe(true);
  });
});
