import { ChatOpenAI } from '@langchain/openai';
import { getEncoding } from 'js-tiktoken';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ChatSession } from '../../src/agent/runner.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testContext } from '../helpers/site.js';
import { selectTools, type ToolFilter, tools as registry } from '../../src/call/index.js';

let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
});
afterAll(() => server.stop());
// One test's unconsumed scripted steps must not become the next test's replies.
beforeEach(() => server.clear());

// Every schema is sent with every request: the whole list stays within 2,800 tokens (o200k, issue
// #21's target; the standing limit is 3,600) and 150 a tool on average.
/** The tools one chat request carries with this filter, and their tokens. */
async function sentTools(filter: ToolFilter) {
  const model = new ChatOpenAI({
    model: 'scripted',
    apiKey: 'x',
    configuration: { baseURL: server.url },
    maxRetries: 0,
  });
  const session = new ChatSession({ model, context: testContext(), filter, approver: async () => ({ approved: true }) });
  server.script({ content: 'ok' });
  await session.turn('hi');
  const tools = server.requests.at(-1)!.tools!;
  expect(tools).toHaveLength(selectTools(registry, filter).length);
  const tokens = getEncoding('o200k_base').encode(JSON.stringify(tools)).length;
  console.log(`tool schemas sent to the model${filter.network ? ' (network)' : ''}: ${JSON.stringify(tools).length} chars, ${tokens} tokens`);
  return { tools, tokens };
}

// On a multisite network the four network tools and the network forms of list-users and
// delete-user are sent instead: within the standing limit, 150 a tool on average.
it('on a network, the tool list with the network tools stays within 3,600 tokens', async () => {
  const { tools, tokens } = await sentTools({ network: true });
  expect(tools.map((t) => t.function.name)).toContain('grant-super-admin');
  expect(tokens).toBeLessThanOrEqual(3600);
  expect(tokens / tools.length).toBeLessThanOrEqual(150);
});

it('the registry’s tool schemas the model receives stay within the token budget and keep what a call needs', async () => {
  const { tools, tokens } = await sentTools({});
  expect(tokens).toBeLessThanOrEqual(2800);
  expect(tokens / tools.length).toBeLessThanOrEqual(150);
  for (const { function: fn } of tools) {
    expect(fn.description!.length, fn.name).toBeGreaterThan(10);
    const parameters = fn.parameters as {
      type: string;
      properties: Record<string, { type?: string }>;
      required?: string[];
    };
    expect(parameters.type).toBe('object');
    for (const [key, property] of Object.entries(parameters.properties))
      expect(property.type, `${fn.name}.${key}`).toBeTruthy();
  }
  const merge = tools.find((t) => t.function.name === 'merge-categories')!.function.parameters as {
    required: string[];
  };
  expect(merge.required.sort()).toEqual(['source_ids', 'target_id']);
});
