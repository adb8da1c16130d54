import { mapLimit } from './concurrency.js';
import { WordPressError } from './errors.js';
import type { Query } from './http-helpers.js';

/** WordPress caps `per_page` at 100 on every core collection. */
const MAX_PER_PAGE = 100;

export interface CollectionWindow<T> {
  items: T[];
  /** Items matching the query on the whole site: `X-WP-Total`, else counted (see below). */
  total: number;
}

/** What a window needs of the client (not its class: that would be an import cycle). */
interface WindowSource {
  readonly concurrency: number;
  request<T>(req: { path: string; query?: Query }): Promise<{ data: T; total?: number }>;
  count(path: string, query?: Query): Promise<number>;
}

/**
 * `count` items of a collection starting at `offset`, and the collection's total. Pages, not
 * WordPress's `offset` parameter: categories (any hierarchical taxonomy) do not accept
 * `offset` (https://github.com/WordPress/wordpress-develop/blob/6.8/src/wp-includes/rest-api/endpoints/class-wp-rest-terms-controller.php,
 * get_collection_params). A window on a multiple of its size is one page of that size; any
 * other window reads the 100-item pages it overlaps. A caller that already knows the total
 * passes it, so nothing is counted when a proxy strips the headers (client.count then reads
 * every id, 100 a request: only the first page of a listing pays that).
 */
export async function fetchWindow<T>(
  client: WindowSource,
  path: string,
  query: Query,
  window: { offset: number; count: number; knownTotal?: number },
): Promise<CollectionWindow<T>> {
  const { offset, count } = window;
  const aligned = count <= MAX_PER_PAGE && offset % count === 0;
  const perPage = aligned ? count : MAX_PER_PAGE;
  const firstPage = Math.floor(offset / perPage) + 1;
  const lastPage = Math.floor((offset + count - 1) / perPage) + 1;
  const pages = Array.from({ length: lastPage - firstPage + 1 }, (_, i) => firstPage + i);
  const responses = await mapLimit(pages, client.concurrency, (page) => readPage<T>(client, path, query, perPage, page));
  const items = responses.flatMap((response) => response.items);
  const skip = offset - (firstPage - 1) * perPage;
  const total = responses[0]?.total ?? window.knownTotal ?? (await client.count(path, query));
  return { items: items.slice(skip, skip + count), total };
}

/** One page; a page past the end is an error in WordPress (`rest_*_invalid_page_number`), here []. */
async function readPage<T>(client: WindowSource, path: string, query: Query, perPage: number, page: number) {
  try {
    const response = await client.request<T[]>({ path, query: { ...query, per_page: perPage, page } });
    return { items: Array.isArray(response.data) ? response.data : [], total: response.total };
  } catch (err) {
    if (!(err instanceof WordPressError && err.code.endsWith('invalid_page_number'))) throw err;
    return { items: [] as T[], total: undefined };
  }
}
