/**
 * The site a change belongs to, as the change store keys it (issue #47): scheme, host, port and
 * path, normalised — never a file name. `http://h:9300` and `http://h/9300` are two sites;
 * `HTTPS://Example.com:443/blog/` and `https://example.com/blog` are one.
 */
export function siteKey(url: string): string {
  const u = new URL(url);
  const port = u.port && !((u.protocol === 'http:' && u.port === '80') || (u.protocol === 'https:' && u.port === '443')) ? `:${u.port}` : '';
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.protocol}//${u.hostname.toLowerCase()}${port}${path}`;
}
