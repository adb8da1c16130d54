import { describe, expect, it } from 'vitest';
import { callIn, callOkIn, unique, wp } from '../../helpers/site.js';
import { withoutCompanion } from '../../helpers/site.js';
import { categoriesNamed, siteAt, useQuirksProxy } from './quirks-setup.js';

const { proxy } = useQuirksProxy();

/** A read, a write and a /batch/v1 write through `site`, each checked on the site directly. */
async function worksThrough(url: string) {
  const site = withoutCompanion(siteAt(url));
  const name = unique('Rooted');
  const created = await callOkIn(site, 'create-category', { name });
  expect(await categoriesNamed(name)).toEqual([{ id: created.id, name }]);
  const listed = await callOkIn(site, 'get-cms-categories');
  expect(listed.total).toBe(await wp().count('/wp/v2/categories', { hide_empty: false }));
  const posts = await wp().get<Array<{ id: number }>>('/wp/v2/posts', { per_page: 3, _fields: 'id', orderby: 'id' });
  const ids = posts.map((p) => p.id);
  const report = await callOkIn(site, 'assign-categories-to-posts', { post_ids: ids, category_ids: [created.id] });
  expect(report.updated + report.unchanged).toBe(3);
  const after = await wp().get<Array<{ categories: number[] }>>('/wp/v2/posts', {
    include: ids,
    _fields: 'categories',
  });
  expect(after.every((p) => p.categories.includes(created.id))).toBe(true);
  return site;
}

describe('where the REST API lives', () => {
  it('plain permalinks (/wp-json/ is a 404 page), root from the Link header: everything works', async () => {
    proxy().quirk({ restRouteOnly: { advertise: true } });
    const site = await worksThrough(proxy().url);
    expect(site.client.warnings.join(' ')).toContain('?rest_route=/ (from its Link header)');
    expect(proxy().count(undefined, /rest_route=/)).toBeGreaterThan(0);
  });

  it('plain permalinks and no Link header: the ?rest_route= fallback', async () => {
    proxy().quirk({ restRouteOnly: { advertise: false } });
    const site = await worksThrough(proxy().url);
    expect(site.client.warnings.join(' ')).toContain('(plain permalinks)');
  });

  it('a site under /blog, CMS_URL = the site address', async () => {
    proxy().quirk({ subPath: '/blog' });
    const site = await worksThrough(`${proxy().url}/blog`);
    expect(site.client.warnings).toEqual([]);
  });

  it('a site under /blog with plain permalinks', async () => {
    proxy().quirk({ subPath: '/blog', restRouteOnly: { advertise: true } });
    await worksThrough(`${proxy().url}/blog`);
    expect(proxy().count(undefined, /^\/blog\/\?rest_route=/)).toBeGreaterThan(0);
  });

  it('a normal site costs no extra request for discovery', async () => {
    const site = siteAt(proxy().url);
    const since = proxy().events.length;
    await callOkIn(site, 'get-cms-tags');
    expect(site.client.warnings).toEqual([]);
    const seen = proxy().events.slice(since);
    expect(seen.every((e) => e.method === 'GET' && e.path.startsWith('/wp-json/'))).toBe(true);
    expect(seen).toHaveLength(site.client.stats.requests);
  });
});

describe('credentials that never arrive', () => {
  it('a server that drops the Authorization header: the error explains it and the .htaccess fix; nothing is written', async () => {
    proxy().quirk({ dropAuthorization: true });
    const name = unique('NoAuth');
    const outcome = await callIn(siteAt(proxy().url), 'create-category', { name });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'authentication_failed' } });
    if (!outcome.ok) {
      expect(outcome.error.message).toContain('logged out');
      expect(outcome.error.hint).toContain('SetEnvIf Authorization "(.*)" HTTP_AUTHORIZATION=$1');
    }
    expect(await categoriesNamed(name)).toEqual([]);
  });

  it.each([
    { code: 'rest_cannot_access', message: 'DRA: Only authenticated users can access the REST API.', status: 401 },
    { code: 'rest_login_required', message: 'REST API restricted to authenticated users.', status: 401 },
  ])('a security plugin closing the REST API ($code): named, with both fixes', async (plugin) => {
    proxy().quirk({ dropAuthorization: true, securityPlugin: plugin });
    const outcome = await callIn(siteAt(proxy().url), 'get-cms-tags');
    expect(outcome).toMatchObject({ ok: false, error: { code: 'authentication_failed' } });
    if (!outcome.ok) {
      expect(outcome.error.message).toContain(plugin.message);
      expect(outcome.error.hint).toContain('security plugin');
      expect(outcome.error.hint).toContain('SetEnvIf');
    }
  });
});
