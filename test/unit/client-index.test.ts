import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/client/index.js';

/** A tiny site whose plugin goes away mid-session: its routes then answer 404 rest_no_route. */
let pluginActive = true;
let indexReads = 0;
const server = http.createServer((req, res) => {
  const json = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (req.url?.startsWith('/wp-json/?')) {
    indexReads++;
    return json(200, { namespaces: pluginActive ? ['wp/v2', 'cms-admin/v1'] : ['wp/v2'] });
  }
  if (req.url?.startsWith('/wp-json/cms-admin/v1/roles') && pluginActive) return json(200, { roles: [] });
  return json(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.' });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('REST index cache in a long-lived client', () => {
  it('is kept between calls, and read again after a 404 rest_no_route', async () => {
    const client = new WordPressClient({ url, username: 'u', appPassword: 'p', onWarning: () => undefined });
    expect(await client.namespaces()).toContain('cms-admin/v1');
    expect(await client.namespaces()).toContain('cms-admin/v1');
    expect(indexReads).toBe(1);
    pluginActive = false;
    await expect(client.get('/cms-admin/v1/roles')).rejects.toMatchObject({ code: 'rest_no_route' });
    expect(await client.namespaces()).toEqual(['wp/v2']);
    expect(indexReads).toBe(2);
  });
});
