import { mapLimit } from './concurrency.js';
import { WordPressError } from './errors.js';
import type { Query } from './http-helpers.js';

/** What paging needs of the client (not its class: that would be an import cycle). */
interface PagedSource {
  readonly siteUrl: string;
  readonly concurrency: number;
  request<T>(req: { path: string; query?: Query }): Promise<{ data: T; total?: number; totalPages?: number }>;
  get<T>(path: string, query?: Query): Promise<T>;
  warnOnce(key: string, message: string): void;
}

/**
 * Every page of a collection, in order. When page 1 tells `X-WP-TotalPages`, the rest are
 * fetched `concurrency` at a time. Caching proxies and CDNs sometimes strip that header; then
 * pages are read one after another until a short or empty one, so a list is never cut short.
 */
export async function* pages<T>(
  client: PagedSource,
  path: string,
  query: Query,
  options: { concurrency?: number },
): AsyncGenerator<T[]> {
  const perPage = Number(query.per_page ?? 100);
  const first = await client.request<T[]>({ path, query: { ...query, per_page: perPage, page: 1 } });
  yield first.data;
  if (first.totalPages === undefined) {
    if (first.data.length < perPage) return;
    client.warnOnce(
      'no-totals',
      `${client.siteUrl} sends no X-WP-Total/X-WP-TotalPages headers (a caching proxy or CDN strips them): lists are read page by page until a short page, which takes longer.`,
    );
    yield* untilShortPage<T>(client, path, query, perPage);
    return;
  }
  const limit = options.concurrency ?? client.concurrency;
  for (let start = 2; start <= first.totalPages; start += limit) {
    const batch = Array.from({ length: Math.min(limit, first.totalPages - start + 1) }, (_, i) => start + i);
    const results = await mapLimit(batch, limit, (page) =>
      client.get<T[]>(path, { ...query, per_page: perPage, page }),
    );
    for (const page of results) yield page;
  }
}

async function* untilShortPage<T>(client: PagedSource, path: string, query: Query, perPage: number) {
  for (let page = 2; ; page++) {
    let items: T[];
    try {
      items = await client.get<T[]>(path, { ...query, per_page: perPage, page });
    } catch (err) {
      // Posts and users answer a page past the end with 400 rest_*_invalid_page_number; terms with [].
      if (err instanceof WordPressError && err.status === 400 && /invalid_page_number$/.test(err.code)) return;
      throw err;
    }
    if (items.length) yield items;
    if (items.length < perPage) return;
  }
}

/** The size of a collection: `X-WP-Total` of a one-item page, or every id counted when the header is stripped. */
export async function count(client: PagedSource, path: string, query: Query): Promise<number> {
  const response = await client.request<unknown[]>({ path, query: { ...query, per_page: 1, _fields: 'id' } });
  if (response.total !== undefined) return response.total;
  if (response.data.length === 0) return 0;
  let n = 0;
  for await (const page of pages<unknown>(client, path, { ...query, per_page: 100, _fields: 'id' }, {}))
    n += page.length;
  return n;
}
