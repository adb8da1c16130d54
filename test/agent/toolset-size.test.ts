import { ChatOpenAI } from '@langchain/openai';
import { getEncoding } from 'js-tiktoken';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ChatSession } from '../../src/agent/runner.js';
import {
  type Fleet,
  resolveToolsets,
  type ToolFilter,
  TOOLSET_NAMES,
  TOOLSET_OF,
  tools as registry,
  type ToolsetName,
} from '../../src/call/index.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testContext, testSite } from '../helpers/site.js';

/**
 * Tokens of the tool list per toolset (issue #51), as ChatOpenAI sends it (captured at a scripted
 * OpenAI-compatible server; o200k_base): the default set, each toolset, `all`. The figures in
 * docs/providers.md and BENCHMARKS.md come from this file's output.
 */
let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
});
afterAll(() => server.stop());
beforeEach(() => server.clear());

const encoder = getEncoding('o200k_base');
const tokens = (value: unknown) => encoder.encode(JSON.stringify(value)).length;
type SentTool = { type: string; function: { name: string } };

function fleet(): Fleet {
  const { url, username } = testSite();
  const site = (name: string) => ({ name, url, username, groups: [], context: testContext() });
  return { sites: [site('a'), site('b')] } as Fleet;
}

/** The tools one chat request carries in a session with this filter (several sites with `onFleet`). */
async function sent(filter: ToolFilter, onFleet = false): Promise<SentTool[]> {
  const model = new ChatOpenAI({ model: 'scripted', apiKey: 'x', configuration: { baseURL: server.url }, maxRetries: 1 });
  const context = onFleet ? fleet() : testContext();
  const session = new ChatSession({ model, context, filter, approver: async () => ({ approved: true }) });
  server.script({ content: 'ok' });
  const turn = await session.turn('hi');
  expect(turn.stopped).toBeUndefined();
  return server.requests.at(-1)!.tools as SentTool[];
}

it('measures the default set, each toolset and all; the default set stays within 3,600 tokens', async () => {
  const rows: string[] = [];
  const row = (what: string, list: SentTool[]) => {
    rows.push(`| ${what} | ${list.length} | ${JSON.stringify(list).length} | ${tokens(list)} |`);
    return tokens(list);
  };
  const own = (list: SentTool[]) => list.filter((tool) => tool.function.name !== 'enable-toolset');

  for (const [shape, filter, onFleet] of [
    ['one site', {}, false],
    ['a network, super admin', { network: true }, false],
    ['several sites', {}, true],
  ] as const) {
    const list = await sent(filter, onFleet);
    expect(row(`default set, ${shape}`, list)).toBeLessThanOrEqual(3600);
  }
  let sum = 0;
  for (const toolset of TOOLSET_NAMES) {
    const members = registry.filter((tool) => TOOLSET_OF[tool.name] === toolset);
    if (!members.length) continue;
    const list = own(await sent({ toolsets: [toolset], network: toolset === 'network' }, toolset === 'fleet'));
    // Exactly the toolset's tools were sent (network and fleet in the session shape that has them).
    expect(list.map((tool) => tool.function.name).sort()).toEqual(members.map((tool) => tool.name).sort());
    sum += row(`toolset ${toolset}`, list);
  }
  const all = await sent({ toolsets: resolveToolsets('all'), network: true });
  const allTokens = row('all, on a network (every tool but list-sites)', all);
  // The toolsets' figures add up to the whole, less list-sites' and give or take a separator each.
  const listSites = registry.some((tool) => tool.name === 'list-sites') ? tokens(own(await sent({ toolsets: ['fleet'] }, true))) : 0;
  expect(Math.abs(sum - listSites - allTokens)).toBeLessThanOrEqual(TOOLSET_NAMES.length);
  const offering = (await sent({ toolsets: ['taxonomy'] as ToolsetName[] })).filter((t) => t.function.name === 'enable-toolset');
  const offered = (offering[0]?.function as { parameters?: { properties?: { toolset?: { enum?: string[] } } } } | undefined)?.parameters
    ?.properties?.toolset?.enum;
  row(`enable-toolset (offering ${offered?.join(', ')})`, offering);
  console.log(`| tool list | tools | characters | tokens |\n|---|---|---|---|\n${rows.join('\n')}`);
});
