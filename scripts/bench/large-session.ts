import { ChatOpenAI } from '@langchain/openai';
import { ChatSession } from '../../src/agent/runner.js';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import { type ChatRequest, type ScriptedReply, type ScriptStep, ScriptedOpenAI } from '../../test/helpers/scripted-openai.js';
import { freshContext } from './measure.js';

const lastResult = (request: ChatRequest): any => {
  const tool = [...request.messages].reverse().find((m) => m.role === 'tool');
  return JSON.parse(String(tool?.content ?? '{}'));
};
const call = (name: string, args: Record<string, unknown>): ScriptedReply => ({ toolCalls: [{ name, args }] });
const say = (content: string): ScriptedReply => ({ content });

/** Ten turns, two model requests each: list, search, page, edit — 20 requests in all. */
function script(tagName: string, find: string): Array<{ user: string; steps: ScriptStep[] }> {
  let tagId = 0;
  let categoriesCursor = '';
  return [
    { user: 'Show me the tags.', steps: [call('get-cms-tags', {}), say('Here are the first tags.')] },
    {
      user: `Find the tag ${find}.`,
      steps: [
        call('get-cms-tags', { search: find }),
        (request) => {
          tagId = lastResult(request).items[0]?.id ?? 0;
          return say(`It is tag ${tagId}.`);
        },
      ],
    },
    {
      user: `Rename it to ${tagName}.`,
      steps: [(_request) => call('update-tag', { id: tagId, name: tagName }), say('Renamed.')],
    },
    {
      user: 'List the categories.',
      steps: [
        call('get-cms-categories', {}),
        (request) => {
          categoriesCursor = lastResult(request).next_cursor ?? '';
          return say('Here are the first categories.');
        },
      ],
    },
    { user: 'Next page.', steps: [() => call('get-cms-categories', { cursor: categoriesCursor }), say('More categories.')] },
    { user: 'List the users.', steps: [call('list-users', {}), say('Here are the first users.')] },
    {
      user: 'Which editors registered this year?',
      steps: [call('list-users', { role: 'editor', registered_after: '2026-01-01' }), say('These editors.')],
    },
    { user: 'What roles are there?', steps: [call('list-user-roles', {}), say('These roles.')] },
    { user: 'And the taxonomies?', steps: [call('list-taxonomies', {}), say('These taxonomies.')] },
    { user: 'Create a tag "Bench Session".', steps: [call('create-tag', { name: `${tagName} new` }), say('Created.')] },
  ];
}

/**
 * A scripted 20-step session on the large site through the real ChatOpenAI client: prompt
 * tokens of every request the model received (messages + tool schemas, o200k), with the
 * runner's history bound and without it.
 */
export async function benchChatSession(site: SandboxCredentials, tokens: (text: string) => number) {
  const measure = async (historyTokens: number, find: string) => {
    const server = await new ScriptedOpenAI().start();
    try {
      const context = await freshContext(site);
      const model = new ChatOpenAI({ model: 'scripted', apiKey: 'bench', configuration: { baseURL: server.url }, maxRetries: 0 });
      const session = new ChatSession({
        model,
        context,
        approver: async () => ({ approved: true }),
        history: { maxTokens: historyTokens },
      });
      const tagName = `Bench Renamed ${Date.now().toString(36)}`;
      for (const turn of script(tagName, find)) {
        server.script(...turn.steps);
        const result = await session.turn(turn.user);
        if (result.stopped) throw new Error(`chat turn stopped: ${result.stopped.message}`);
      }
      const sizes = server.requests.map((r) => tokens(JSON.stringify(r.messages)) + tokens(JSON.stringify(r.tools ?? [])));
      return {
        requests: sizes.length,
        largest: Math.max(...sizes),
        total: sizes.reduce((a, b) => a + b, 0),
        httpRequests: context.client.stats.requests,
      };
    } finally {
      await server.stop();
    }
  };
  return {
    bounded: await measure(24_000, 'Huge Tag 12001'),
    unbounded: await measure(10_000_000, 'Huge Tag 12002'),
  };
}
