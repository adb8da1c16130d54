import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Approver } from '../../src/call/index.js';
import { AbilitiesToolkit, abilityLangChainTools, type NamedSite } from '../../src/index.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { recordOutput } from '../helpers/output-log.js';
import { unique, wordPressAtLeast } from '../helpers/site.js';

/**
 * Issue #62 on several sites: `site` takes names, groups and `all`; each site's own abilities are
 * read on that site; a site without the Abilities API (the fleet's WordPress 6.1) answers that on
 * its own line; a run that is not read-only on several sites is one question naming each site,
 * declined nothing anywhere, approved once on each. Products are read back from each site.
 */
const PREFIX = 'Fleet ability product';
let fleet: Fleet;
let sites: NamedSite[];

beforeAll(async () => {
  fleet = await startFleet();
  sites = fleet.sites.map((s) => ({ name: s.name, url: s.url, username: s.username, appPassword: s.appPassword, groups: s.wp.startsWith('6.1') ? ['old'] : ['new'] }));
}, 300_000);
afterAll(async () => {
  for (const site of fleet?.sites ?? []) {
    const found = await fleet.client(site.name).get<Array<{ id: number; title: { raw: string } }>>('/wp/v2/products', { search: PREFIX, status: 'any', context: 'edit', per_page: 100 }).catch(() => []);
    for (const product of found) await fleet.client(site.name).delete(`/wp/v2/products/${product.id}`, { force: true });
  }
  await fleet?.stop();
});

const titled = async (site: string, title: string) =>
  (await fleet.client(site).get<Array<{ title: { raw: string } }>>('/wp/v2/products', { search: title, status: 'any', context: 'edit' })).filter((p) => p.title.raw === title);
const recorder = (answer: boolean) => {
  const asked: ApprovalRequest[] = [];
  const approvals: Approver = async (request) => {
    asked.push(request);
    return answer ? { approved: true } : { approved: false, reason: 'No.' };
  };
  return { asked, approvals };
};
const call = async (tool: { invoke(args: unknown): Promise<unknown> }, args: Record<string, unknown>) => {
  const text = String(await tool.invoke(args));
  recordOutput(text);
  return JSON.parse(text) as { sites: Array<{ site: string; ok: boolean; result?: any; error?: { code: string } }> };
};
const runTool = (approvals: Approver) => new AbilitiesToolkit({ sites, approvals }).getTools().find((t) => t.name === 'run-ability')!;

describe.skipIf(!wordPressAtLeast('6.9'))('site abilities on several sites', () => {
  it('find-abilities on all: each site’s own; the 6.1 site says it has none, on its own line', async () => {
    const find = new AbilitiesToolkit({ sites }).getTools().find((t) => t.name === 'find-abilities')!;
    const answer = await call(find, { site: 'all', namespace: 'cms-sandbox' });
    const [one, two, three] = answer.sites;
    expect(one).toMatchObject({ site: 'one', ok: true, result: { total: 6 } });
    expect(two).toMatchObject({ site: 'two', ok: true, result: { total: 6 } });
    expect(three).toMatchObject({ site: 'three', ok: false, error: { code: 'abilities_unavailable' } });
  });

  it('a read-only ability on a group runs on each, unasked', async () => {
    const seen = recorder(false);
    const answer = await call(runTool(seen.approvals), { site: '@new', name: 'cms-sandbox/products-query', input: '{"search":"Mug"}' });
    expect(answer.sites.map((s) => [s.site, s.ok])).toEqual([
      ['one', true],
      ['two', true],
    ]);
    expect(answer.sites[1]?.result).toMatchObject({ result: { products: [{ title: 'Ceramic Mug' }] } });
    expect(seen.asked).toEqual([]);
  });

  it('a write on all is one question naming each site; declined nothing anywhere, approved once on each', async () => {
    const title = unique(PREFIX);
    const no = recorder(false);
    const declined = await call(runTool(no.approvals), { site: 'all', name: 'cms-sandbox/product-create', input: JSON.stringify({ title }) });
    expect(no.asked).toHaveLength(1);
    expect(no.asked[0]?.sites?.map((s) => s.site)).toEqual(['one', 'two']);
    for (const line of no.asked[0]?.sites ?? []) expect(line.summary).toMatch(/"Create a product" \(cms-sandbox\/product-create\).*cannot preview/);
    expect(declined).toMatchObject({ error: { code: 'rejected_by_user' } });
    expect([await titled('one', title), await titled('two', title)]).toEqual([[], []]);

    const yes = recorder(true);
    const approved = await call(runTool(yes.approvals), { site: 'all', name: 'cms-sandbox/product-create', input: JSON.stringify({ title }) });
    expect(yes.asked).toHaveLength(1);
    expect(approved.sites.map((s) => [s.site, s.ok, s.error?.code])).toEqual([
      ['one', true, undefined],
      ['two', true, undefined],
      ['three', false, 'abilities_unavailable'],
    ]);
    expect([(await titled('one', title)).length, (await titled('two', title)).length]).toEqual([1, 1]);
  });

  it('an ability made a tool of its own resolves on each site; one site of several is asked naming it', async () => {
    const title = unique(PREFIX);
    const seen = recorder(false);
    const [tool] = await abilityLangChainTools({ sites, approvals: seen.approvals, abilities: ['cms-sandbox/product-create'] });
    expect(tool?.name).toBe('cms-sandbox_product-create');
    const answer = await call(tool!, { site: 'two,three', title });
    expect(answer.sites.map((s) => [s.site, s.error?.code])).toEqual([
      ['two', 'rejected_by_user'],
      ['three', 'abilities_unavailable'],
    ]);
    expect(seen.asked[0]?.summary).toMatch(/^on two: run the site's ability/);
    expect(await titled('two', title)).toEqual([]);
  });
});
