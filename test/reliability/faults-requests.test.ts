import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../helpers/fault-proxy.js';
import { unique, wp } from '../helpers/site.js';
import { makeCategory, makePosts, readPosts } from '../wordpress/taxonomy/fixtures.js';
import { expandIds } from '../helpers/listing.js';
import { checkAssign, expectClearError, tally } from './fault-checks.js';
import { BATCH, CATEGORIES, proxied, proxy, run, useFaultProxy } from './fault-setup.js';

useFaultProxy();

async function categoriesNamed(name: string): Promise<number[]> {
  const found = await wp().get<Array<{ id: number; name: string }>>('/wp/v2/categories', {
    search: name,
    hide_empty: false,
    _fields: 'id,name',
  });
  return found.filter((c) => c.name === name).map((c) => c.id);
}

describe('reads are retried, writes never', () => {
  const faults: Fault[] = [
    { kind: 'status', status: 503, when: 'before' },
    { kind: 'drop', when: 'before' },
    { kind: 'drop', when: 'after' },
    { kind: 'status', status: 500, when: 'before' },
    { kind: 'status', status: 502, when: 'before' },
    { kind: 'cut', length: 'declared' },
    { kind: 'cut', length: 'shortened' },
  ];
  it.each(faults.map((f) => [JSON.stringify(f), f] as const))(
    'a GET that fails once (%s) is retried and succeeds',
    async (_, fault) => {
      const context = proxied();
      await context.client.connect();
      const since = proxy.events.length;
      proxy.clear().inject({ method: 'GET', path: CATEGORIES, nth: 1, fault });
      const outcome = await run(context, 'get-cms-categories');
      proxy.clear();
      expect(outcome.ok && (outcome.result as { total: number }).total).toBe(
        await wp().count('/wp/v2/categories', { hide_empty: false }),
      );
      expect(proxy.count('GET', CATEGORIES, since)).toBe(2);
      expect(context.client.stats.retries).toBe(1);
    },
  );

  const writeFaults: Array<[Fault, boolean]> = [
    [{ kind: 'status', status: 503, when: 'after' }, true],
    [{ kind: 'drop', when: 'after' }, true],
    [{ kind: 'status', status: 500, when: 'after' }, true],
    [{ kind: 'status', status: 503, when: 'before' }, false],
    [{ kind: 'drop', when: 'before' }, false],
  ];
  it.each(writeFaults.map(([f, applied]) => [JSON.stringify(f), f, applied] as const))(
    'create-category through %s: one POST, at most one category; applied → read back and reported created, else an error',
    async (_, fault, applied) => {
      const name = unique('Fault cat');
      const context = proxied();
      const since = proxy.events.length;
      proxy.clear().inject({ method: 'POST', path: /^\/wp-json\/wp\/v2\/categories\?/, fault });
      const outcome = await run(context, 'create-category', { name });
      proxy.clear();
      expect(proxy.count('POST', /\/wp\/v2\/categories/, since)).toBe(1);
      const ids = await categoriesNamed(name);
      if (ids.length > 1) tally.duplicateWrites += ids.length - 1;
      expect(ids).toHaveLength(applied ? 1 : 0);
      // The answer was lost after WordPress made it: the tool reads it back and says so truthfully.
      if (applied) expect(outcome).toMatchObject({ ok: true, result: { id: ids[0], name } });
      else expectClearError(outcome);
      // Trying again is safe: WordPress's answer names the category the lost answer created.
      const again = await run(context, 'create-category', { name });
      if (applied)
        expect(again.ok ? again.result : again.error).toMatchObject({
          code: 'term_exists',
          details: { existing_id: ids[0] },
        });
      else expect(again.ok).toBe(true);
      expect(await categoriesNamed(name)).toHaveLength(1);
    },
  );

  it('create-user whose answer is lost: one POST, one user', async () => {
    const username = unique('fault user')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_');
    const context = proxied();
    const since = proxy.events.length;
    proxy
      .clear()
      .inject({ method: 'POST', path: /^\/wp-json\/wp\/v2\/users\?/, fault: { kind: 'drop', when: 'after' } });
    const outcome = await run(context, 'create-user', {
      username,
      email: `${username}@example.org`,
      password: `Pw-${randomBytes(12).toString('base64url')}`,
    });
    proxy.clear();
    expectClearError(outcome);
    expect(proxy.count('POST', /\/wp\/v2\/users/, since)).toBe(1);
    const found = await wp().get<Array<{ username: string }>>('/wp/v2/users', {
      search: username,
      context: 'edit',
      _fields: 'id,username',
    });
    const same = found.filter((u) => u.username === username);
    if (same.length > 1) tally.duplicateWrites += same.length - 1;
    expect(same).toHaveLength(1);
  });
});

describe('timeouts are bounded', () => {
  const timeoutMs = 400;
  // Per request timeoutMs, and a timeout is never retried (reads or writes). The proxy holds
  // these requests forever, so an answer at all proves the timeout fired; the request counts
  // prove nothing was retried. (How long it takes is the benchmark's business, not a test's.)

  it('a read held forever fails after one timeout: timeouts are not retried', async () => {
    const context = proxied(timeoutMs);
    const since = proxy.events.length;
    proxy.clear().inject({ method: 'GET', fault: { kind: 'delay', ms: Number.POSITIVE_INFINITY } });
    const outcome = await run(context, 'get-cms-tags');
    proxy.clear();
    expect(expectClearError(outcome).message).toContain('timed out');
    expect(proxy.count('GET', undefined, since)).toBe(1);
  });

  it('a write held forever fails after one timeout and is not repeated', async () => {
    const context = proxied(timeoutMs);
    await context.client.connect();
    const name = unique('Held cat');
    const since = proxy.events.length;
    proxy.clear().inject({ method: 'POST', fault: { kind: 'delay', ms: Number.POSITIVE_INFINITY } });
    const outcome = await run(context, 'create-category', { name });
    proxy.clear();
    expect(expectClearError(outcome).message).toContain('timed out');
    expect(proxy.count('POST', undefined, since)).toBe(1);
    expect(await categoriesNamed(name)).toEqual([]);
  });

  it('bulk assign with every batch held forever fails as a whole, naming every post', async () => {
    const category = await makeCategory('Held bulk');
    const posts = await makePosts(Array.from({ length: 60 }, () => ({})));
    const context = proxied(timeoutMs);
    const before = new Map([...(await readPosts(posts)).values()].map((p) => [p.id, p.categories]));
    const since = proxy.events.length;
    proxy.clear().inject({ method: 'POST', path: BATCH, fault: { kind: 'delay', ms: Number.POSITIVE_INFINITY } });
    const outcome = await run(context, 'assign-categories-to-posts', { post_ids: posts, category_ids: [category.id] });
    proxy.clear();
    // Each batch sent once, none retried after its timeout; the first timed out, the next goes alone,
    // smaller (sized from the first's time), and after two timeouts in a row the rest is not sent (#61).
    expect(proxy.count('POST', BATCH, since)).toBe(2);
    // Every post failed (timed out, read back: not applied): an error, exit 1, not an ok answer.
    expect(outcome).toMatchObject({ ok: false, error: { code: 'all_posts_failed' } });
    const failures = (outcome as { error: { details: { failures: Array<{ post_ids: string }> } } }).error.details.failures;
    expect(failures.flatMap((f) => expandIds(f.post_ids)).sort()).toEqual([...posts].sort());
    await checkAssign(outcome, posts, category.id, before);
  });
});
