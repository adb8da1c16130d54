import { describe, expect, it } from 'vitest';
import { WordPressClient, WordPressError } from '../../src/client/index.js';
import { testSite, unique, wp } from '../helpers/site.js';

const STATUSES = 'publish,draft,pending,private,future';

describe('WordPress client against the real site', () => {
  it('lists 250+ items across pages, each exactly once', async () => {
    const have = await wp().count('/wp/v2/tags', { hide_empty: false });
    const prefix = unique('ClientTag');
    const created = await wp().batch(
      Array.from({ length: Math.max(0, 260 - have) }, (_, i) => ({
        path: '/wp/v2/tags',
        body: { name: `${prefix} ${i}` },
      })),
    );
    expect(created.every((r) => r.ok)).toBe(true);

    const client = new WordPressClient(testSite());
    const tags = await client.all<{ id: number }>('/wp/v2/tags', { hide_empty: false, _fields: 'id' });
    const total = await wp().count('/wp/v2/tags', { hide_empty: false });
    expect(total).toBeGreaterThanOrEqual(250);
    expect(tags).toHaveLength(total);
    expect(new Set(tags.map((t) => t.id)).size).toBe(total);
    // One request per page of 100, no more.
    expect(client.stats.requests).toBe(Math.ceil(total / 100));
  });

  it('returns one result per item for a batch of 60 writes with failures in the middle', async () => {
    const posts = await wp().get<Array<{ id: number }>>('/wp/v2/posts', {
      status: STATUSES,
      context: 'edit',
      per_page: 60,
      _fields: 'id',
    });
    expect(posts.length).toBe(60);
    const marker = unique('batch');
    // One write per post: chunks are sent concurrently, so two writes to one post could land in either order.
    const requests = Array.from({ length: 60 }, (_, i) => {
      const missing = i >= 25 && i < 35; // spans the chunk boundary at 25
      return { path: `/wp/v2/posts/${missing ? 99_000_000 + i : posts[i]!.id}`, body: { excerpt: `${marker} ${i}` } };
    });
    const results = await wp().batch(requests);
    expect(results).toHaveLength(60);
    results.forEach((result, i) => {
      const missing = i >= 25 && i < 35;
      expect(result.ok, `item ${i}`).toBe(!missing);
      if (!result.ok) {
        expect(result.error.code).toBe('rest_post_invalid_id');
        expect(result.status).toBe(404);
      }
    });
    // Read back: every write that succeeded landed; the failed ids wrote nothing.
    const after = await wp().get<Array<{ id: number; excerpt: { raw: string } }>>('/wp/v2/posts', {
      include: posts.map((p) => p.id),
      status: STATUSES,
      context: 'edit',
      per_page: 100,
      _fields: 'id,excerpt',
    });
    const excerpt = new Map(after.map((p) => [p.id, p.excerpt.raw]));
    posts.forEach((post, i) => {
      if (i < 25 || i >= 35) expect(excerpt.get(post.id), `post ${i}`).toBe(`${marker} ${i}`);
      else expect(excerpt.get(post.id)).not.toContain(marker);
    });
  });

  it('gives a clear authentication error at connect for a wrong application password', async () => {
    const site = testSite();
    const wrong = 'abcd efgh ijkl mnop qrst uvwx';
    const client = new WordPressClient({ ...site, appPassword: wrong });
    const error = await client.connect().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(WordPressError);
    const wpError = error as WordPressError;
    expect(wpError.code).toBe('authentication_failed');
    expect(wpError.status).toBe(401);
    // The client was given its credentials in code: the error names no environment variable.
    // (Which sentence depends on the version: 6.1 and 7.1 answer a wrong password as logged out.)
    expect(wpError.message).toMatch(/(Check|either) the username and application password given[;: ]/);
    expect(wpError.message).not.toContain('CMS_');
    const serialised = JSON.stringify(wpError) + String(wpError.stack);
    expect(serialised).not.toContain(wrong);
    expect(serialised).not.toContain(wrong.replace(/ /g, ''));
    expect(serialised).not.toContain(Buffer.from(`${site.username}:${wrong}`).toString('base64'));
  });

  it('names where the credentials came from, as the caller says (env, a site profile)', async () => {
    const site = testSite();
    const client = new WordPressClient({ ...site, appPassword: 'abcd efgh ijkl mnop qrst uvwx', credentialsFrom: 'CMS_USERNAME and CMS_APP_PASSWORD' });
    const error = (await client.connect().catch((err: unknown) => err)) as WordPressError;
    expect(error.code).toBe('authentication_failed');
    expect(error.message).toMatch(/(Check|either) CMS_USERNAME and CMS_APP_PASSWORD[; ]/);
  });

  it('never puts the real password in a serialised error', async () => {
    const site = testSite();
    const client = new WordPressClient(site);
    const error = await client.get('/wp/v2/posts/99999999').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(WordPressError);
    expect((error as WordPressError).code).toBe('rest_post_invalid_id');
    const serialised = JSON.stringify(error) + String((error as Error).stack);
    expect(serialised).not.toContain(site.appPassword);
    expect(serialised).not.toContain(site.appPassword.replace(/ /g, ''));
  });
});
