import { categoriesAtPath, type SiteRecord, SiteSnapshot } from './site-state.js';
import type { WordPressClient } from '../client/index.js';

/**
 * Ids that exist only at run time, written into case files as placeholders:
 * - `{{fixture.<key>.<field>}}` — a record the fixture created, e.g. `{{fixture.dup_news.id}}`;
 * - `{{lookup: <kind> "<name>"}}` or `…"<name>".<field>` — a record on the site at the moment
 *   the placeholder is resolved: category by name or path (`Science/Physics`, `/News` = top
 *   level), tag by name, user by username, post by title; the field defaults to `id`;
 * - `{{lookup-end: …}}` — the same, but in `expect` resolved against the end state (for what
 *   the agent created); elsewhere it is a plain lookup.
 * A string that is one placeholder becomes the value itself (a number stays a number).
 */
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;
const FIXTURE = /^fixture\.([a-z][a-z0-9_]*)\.([a-z_]+)$/;
const LOOKUP = /^lookup(-end)?:\s*(category|tag|user|network_user|post|genre|product_cat|product)\s+"([^"]+)"(?:\.([a-z_]+))?$/;

export type LookupKind = 'category' | 'tag' | 'user' | 'network_user' | 'post' | 'genre' | 'product_cat' | 'product';
export type ParsedPlaceholder =
  | { type: 'fixture'; key: string; field: string }
  | { type: 'lookup'; kind: LookupKind; name: string; field: string; end: boolean };

export function parsePlaceholder(body: string): ParsedPlaceholder {
  const fixture = FIXTURE.exec(body);
  if (fixture) return { type: 'fixture', key: fixture[1] as string, field: fixture[2] as string };
  const lookup = LOOKUP.exec(body);
  if (lookup) {
    const [, end, kind, name, field] = lookup;
    return { type: 'lookup', kind: kind as LookupKind, name: name as string, field: field ?? 'id', end: Boolean(end) };
  }
  throw new Error(
    `bad placeholder {{${body}}}: use {{fixture.<key>.<field>}} or {{lookup: category|tag|user|network_user|post|genre|product_cat|product "<name>"}}`,
  );
}

/** Every placeholder in a value (for checking case files when they load). */
export function placeholdersIn(value: unknown): ParsedPlaceholder[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((m) => parsePlaceholder(m[1] as string));
  if (Array.isArray(value)) return value.flatMap(placeholdersIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(placeholdersIn);
  return [];
}

export type FixtureRecords = ReadonlyMap<string, Record<string, unknown>>;

/** Resolves placeholders against the fixture's records and the live site (read fresh per call). */
export class PlaceholderResolver {
  readonly #client: WordPressClient;
  readonly #fixture: FixtureRecords;

  constructor(client: WordPressClient, fixture: FixtureRecords) {
    this.#client = client;
    this.#fixture = fixture;
  }

  /**
   * A deep copy of `value` with every placeholder replaced; with `deferEnd`, `{{lookup-end: …}}`
   * placeholders are left as they are, for a second pass after the run. Lookups read the site
   * afresh, or from `site`: a snapshot of this same moment that other reads share (a case reads
   * its start and its end state once each, not once per resolve and check).
   */
  async resolve<T>(value: T, options: { deferEnd?: boolean; site?: SiteSnapshot } = {}): Promise<T> {
    const site = options.site ?? new SiteSnapshot(this.#client);
    return (await this.#walk(value, site, options.deferEnd ?? false)) as T;
  }

  async #walk(value: unknown, site: SiteSnapshot, defer: boolean): Promise<unknown> {
    if (typeof value === 'string') return this.#string(value, site, defer);
    if (Array.isArray(value)) return Promise.all(value.map((item) => this.#walk(item, site, defer)));
    if (value && typeof value === 'object') {
      const entries = await Promise.all(
        Object.entries(value).map(async ([k, v]) => [k, await this.#walk(v, site, defer)] as const),
      );
      return Object.fromEntries(entries);
    }
    return value;
  }

  async #string(text: string, site: SiteSnapshot, defer: boolean): Promise<unknown> {
    const matches = [...text.matchAll(PLACEHOLDER)];
    if (matches.length === 0) return text;
    const values = await Promise.all(
      matches.map((m) => {
        const placeholder = parsePlaceholder(m[1] as string);
        const deferred = defer && placeholder.type === 'lookup' && placeholder.end;
        return deferred ? m[0] : this.#value(placeholder, site);
      }),
    );
    if (matches.length === 1 && matches[0]?.[0] === text) return values[0];
    let i = 0;
    return text.replace(PLACEHOLDER, () => String(values[i++]));
  }

  async #value(placeholder: ParsedPlaceholder, site: SiteSnapshot): Promise<unknown> {
    const record =
      placeholder.type === 'fixture' ? this.#fixtureRecord(placeholder.key) : await lookup(site, placeholder);
    if (!(placeholder.field in record)) {
      throw new Error(
        `placeholder field "${placeholder.field}" unknown; this record has ${Object.keys(record).join(', ')}`,
      );
    }
    return record[placeholder.field];
  }

  #fixtureRecord(key: string): Record<string, unknown> {
    const record = this.#fixture.get(key);
    if (!record) throw new Error(`{{fixture.${key}…}}: the fixture has no record with key "${key}"`);
    return record;
  }
}

async function lookup(site: SiteSnapshot, { kind, name }: { kind: LookupKind; name: string }): Promise<SiteRecord> {
  let found: SiteRecord[];
  if (kind === 'category') found = categoriesAtPath(await site.read('categories'), name);
  else if (kind === 'tag') found = (await site.read('tags')).filter((t) => t.name === name);
  else if (kind === 'user') found = (await site.read('users')).filter((u) => u.username === name);
  // Any account of a network, member of the main site or not (a network case).
  else if (kind === 'network_user') found = (await site.read('network_users')).filter((u) => u.username === name);
  else if (kind === 'genre') found = (await site.read('genres')).filter((t) => t.name === name);
  else if (kind === 'product_cat') found = categoriesAtPath(await site.read('product_cats'), name);
  else if (kind === 'product') found = (await site.read('products')).filter((p) => p.title === name);
  else found = (await site.read('posts')).filter((p) => p.title === name);
  if (found.length === 1) return found[0] as SiteRecord;
  if (found.length === 0) throw new Error(`lookup: no ${kind} "${name}" on the site`);
  const ids = found.map((r) => r.id).join(', ');
  throw new Error(
    `lookup: ${found.length} ${kind} records match "${name}" (ids ${ids}); use a path like "/${name}" or "Parent/${name}"`,
  );
}
