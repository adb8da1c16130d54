import type { ToolContext } from '../../src/call/index.js';
import { callIn } from '../helpers/site.js';
import { readTerms } from './undo-snapshot.js';
import type { World } from './undo-writes.js';

/**
 * Parallel writers in the undo property test (issue #34.4): a burst of post-term writes at
 * once, each through its own context (own client and connections) writing the same journal,
 * on overlapping posts with a different term each, as 20 `cms-admin invoke` processes did.
 * Whatever order their entries land in, undoing every change must give the site back.
 */

type Call = { tool: string; params: Record<string, unknown> };

const ROUTE = {
  category: { rest_base: 'categories' },
  post_tag: { rest_base: 'tags' },
  genre: { rest_base: 'genres' },
} as const;

/** The calls of one burst, chosen from the site as it is now (deterministic for a seed). */
async function burstCalls(world: World, seed: number, size: number): Promise<Call[]> {
  const terms = async (tax: keyof typeof ROUTE) =>
    (await readTerms(ROUTE[tax])).filter((t) => !(tax === 'category' && t.id === world.defaultCategory));
  const pool = { category: await terms('category'), post_tag: await terms('post_tag'), genre: await terms('genre') };
  const used = new Set<number>();
  /** A term of `tax` no other call of the burst has (writers on distinct terms, as in the finding). */
  const pick = (tax: keyof typeof ROUTE, n: number, usedOnly = false) => {
    const list = pool[tax].filter((t) => !used.has(t.id) && (!usedOnly || t.count));
    const term = list[n % Math.max(list.length, 1)];
    if (term) used.add(term.id);
    return term?.id;
  };
  const window = (i: number) =>
    Array.from({ length: 8 }, (_, k) => world.posts[(seed * 31 + i * 3 + k) % world.posts.length] as number);
  const calls: Call[] = [];
  for (let i = 0; i < size; i++) {
    const n = seed * 7 + i * 13;
    const post_ids = window(i);
    const kind = i % 4;
    const id = pick(kind === 0 ? 'category' : kind === 2 ? 'genre' : 'post_tag', n, kind === 3);
    if (id === undefined) continue;
    if (kind === 0) calls.push({ tool: 'assign-categories-to-posts', params: { post_ids, category_ids: [id] } });
    else if (kind === 1) calls.push({ tool: 'assign-tags-to-posts', params: { post_ids, tag_ids: [id] } });
    else if (kind === 2) calls.push({ tool: 'assign-terms-to-posts', params: { taxonomy: 'genre', post_ids, term_ids: [id] } });
    else calls.push({ tool: 'remove-terms-from-posts', params: { taxonomy: 'post_tag', post_ids, term_ids: [id] } });
  }
  return calls;
}

/** Runs one burst at once; returns the calls that succeeded and the codes of those that did not. */
export async function parallelBurst(
  world: World,
  seed: number,
  makeContext: () => ToolContext,
  size: number,
): Promise<{ ok: Call[]; failed: string[] }> {
  const calls = await burstCalls(world, seed, size);
  const outcomes = await Promise.all(calls.map((c) => callIn(makeContext(), c.tool, c.params)));
  return {
    ok: calls.filter((_, i) => outcomes[i]?.ok),
    failed: outcomes.flatMap((o, i) => (o.ok ? [] : [`${calls[i]?.tool}: ${o.error.code}`])),
  };
}
