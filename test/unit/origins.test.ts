import { describe, expect, it } from 'vitest';
import { redactUrl, redactUrlsIn, WordPressError } from '../../src/client/errors.js';
import { redirectRefusal } from '../../src/client/redirects.js';

/** Issue #26, findings 3 and 7: credentials only to CMS_URL's origin; none shown in any message. */
describe('redirectRefusal', () => {
  const site = 'https://example.com';
  it.each([
    ['https down to http', 'http://example.com/wp-json/wp/v2/users/me'],
    ['another port', 'https://example.com:8443/wp-json/wp/v2/users/me'],
    ['another host', 'https://www.example.com/wp-json/wp/v2/users/me'],
  ])('refuses %s for reads and writes alike, naming both origins', (_, to) => {
    for (const [method, status] of [['GET', 301], ['POST', 308]] as const) {
      const refusal = redirectRefusal(method, status, `${site}/wp-json/wp/v2/users/me`, to, site);
      expect(refusal?.code).toBe('site_redirects');
      expect(refusal?.message).toContain(`another origin (${new URL(to).origin}) than CMS_URL's (${site})`);
    }
  });

  it('from plain http, says the password already went out unencrypted (#48): across the network, or on this machine only', () => {
    const away = redirectRefusal('GET', 301, 'http://shop.example/wp-json/x', 'https://shop.example/wp-json/x', 'http://shop.example');
    expect(away?.message).toContain('the request to http://shop.example had already carried it unencrypted (plain http), readable by anyone on the network path');
    expect(away?.hint).toMatch(/^Treat the application password as exposed: revoke it/);
    const local = redirectRefusal('GET', 301, 'http://127.0.0.1:8/wp-json/x', 'https://127.0.0.1:9/wp-json/x', 'http://127.0.0.1:8');
    expect(local?.message).toContain('The request to http://127.0.0.1:8 did carry it unencrypted (plain http), on this machine only');
    expect(local?.hint).toMatch(/^If the site really lives there/);
    const tls = redirectRefusal('GET', 301, `${site}/wp-json/x`, 'https://www.example.com/wp-json/x', site);
    expect(tls?.message).not.toMatch(/unencrypted/);
  });

  it('follows a read within the origin; a write only with 307/308', () => {
    const from = `${site}/wp-json/wp/v2/categories`;
    expect(redirectRefusal('GET', 301, from, `${from}/`, site)).toBeUndefined();
    expect(redirectRefusal('POST', 308, from, `${from}/`, site)).toBeUndefined();
    expect(redirectRefusal('POST', 301, from, `${from}/`, site)?.code).toBe('write_redirected');
  });
});

describe('URLs with credentials', () => {
  it('are shown without them, wherever they are in a text', () => {
    expect(redactUrl('http://user:s3cret@example.com/wp-json/')).toBe('http://example.com/wp-json/');
    expect(redactUrl('http://example.com')).toBe('http://example.com');
    expect(redactUrlsIn('from http://u:p%40ss@a.test:81/x to https://b.test/ ok')).toBe('from http://a.test:81/x to https://b.test/ ok');
  });

  it('never reach a WordPressError message, hint or request', () => {
    const error = new WordPressError({
      code: 'x',
      message: 'see http://user:s3cret@example.com/a',
      hint: 'set CMS_URL=http://user:s3cret@example.com',
      request: { method: 'GET', url: 'http://user:s3cret@example.com/a' },
    });
    expect(JSON.stringify(error)).not.toContain('s3cret');
  });
});
