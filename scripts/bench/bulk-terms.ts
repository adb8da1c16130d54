/**
 * Bulk post-term writes on a custom taxonomy (issue #21): `genre`, whose REST field is `genres`
 * (its rest_base), on 500 posts of mixed statuses — add one genre, and take one of two genres
 * off — against the same floor and per-post pattern as the category tools.
 */
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import type { ToolContext } from '../../src/call/index.js';
import { withoutCompanion } from '../../test/helpers/site.js';
import { floorWrite, newTerm, perPostWrite, type Reset, type TermChange } from './bulk.js';
import { callTool, type Measurement, measure } from './measure.js';

const ROUTE = '/wp/v2/genres';
const FIELD = 'genres';

type Job = { change: TermChange; tool: string; params: Record<string, unknown> };

async function benchGenreWrite(
  site: SandboxCredentials,
  postIds: number[],
  runs: number,
  prepare: (context: ToolContext) => Promise<Job>,
): Promise<Record<string, Measurement>> {
  const tool = (context: ToolContext, job: Job) => callTool(context, job.tool, { taxonomy: 'genre', post_ids: postIds, ...job.params });
  return {
    floor: await measure(site, runs, prepare, (c, job) => floorWrite(c.client, postIds, FIELD, job.change)),
    perPost: await measure(site, 1, prepare, (c, job) => perPostWrite(c.client, postIds, FIELD, job.change)),
    tool: await measure(site, runs, prepare, tool),
    toolRestOnly: await measure(site, runs, prepare, (c, job) => tool(withoutCompanion(c), job)),
  };
}

/** Adds one new genre to every post, keeping the genres it has. */
export function benchGenreAssign(site: SandboxCredentials, postIds: number[], runs: number, reset: Reset) {
  return benchGenreWrite(site, postIds, runs, async (context) => {
    await reset();
    const genre = await newTerm(context.client, 'Bench genre', ROUTE);
    return { change: (terms) => [...terms, genre], tool: 'assign-terms-to-posts', params: { term_ids: [genre] } };
  });
}

/** Every post has genres A and B (set untimed); takes A off, keeping B. */
export function benchGenreRemove(site: SandboxCredentials, postIds: number[], runs: number, reset: Reset) {
  return benchGenreWrite(site, postIds, runs, async (context) => {
    await reset();
    const [drop, keep] = [await newTerm(context.client, 'Bench genre A', ROUTE), await newTerm(context.client, 'Bench genre B', ROUTE)];
    const prepared = await context.client.batch(postIds.map((id) => ({ path: `/wp/v2/posts/${id}`, body: { [FIELD]: [drop, keep] } })));
    if (prepared.some((r) => !r.ok)) throw new Error('genre fixture: a post could not be prepared');
    return { change: (terms) => terms.filter((t) => t !== drop), tool: 'remove-terms-from-posts', params: { term_ids: [drop] } };
  });
}
