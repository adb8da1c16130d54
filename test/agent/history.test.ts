import { ToolMessage } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scriptedSession } from '../helpers/agent.js';
import { type ChatRequest, ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { unique, wp } from '../helpers/site.js';

let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
  // Big enough listings that stubbing them matters: ≥300 tags.
  const existing = await wp().count('/wp/v2/tags', { hide_empty: false });
  const prefix = unique('History tag');
  await wp().batch(
    Array.from({ length: Math.max(0, 300 - existing) }, (_, i) => ({ path: '/wp/v2/tags', body: { name: `${prefix} ${i}` } })),
  );
}, 120_000);
afterAll(() => server.stop());
// One test's unconsumed scripted steps must not become the next test's replies.
beforeEach(() => server.clear());

const toolContents = (request: ChatRequest) =>
  request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
const size = (request: ChatRequest) => JSON.stringify(request.messages).length;

describe('bounded chat history', () => {
  it('sends old tool results as one-line stubs, keeps the latest whole, and the session keeps everything', async () => {
    const { session } = scriptedSession(server, { history: { maxTokens: 4_000, keepTurns: 1 } });
    // Turn 1: a big listing (300 tags, ~20,000 characters).
    server.script({ toolCalls: [{ name: 'get-cms-tags', args: { limit: 300 } }] }, { content: 'Listed.' });
    await session.turn('List 300 tags');
    const afterTool = server.requests.at(-1) as ChatRequest;
    // The latest tool round reaches the model whole, even over the budget.
    const whole = JSON.parse(toolContents(afterTool)[0] as string);
    expect(whole.items).toHaveLength(300);

    // Turns 2 and 3: more calls; the first listing is now old.
    server.script({ toolCalls: [{ name: 'list-users', args: { limit: 50 } }] }, { content: 'Users listed.' });
    await session.turn('Now list users');
    server.script({ content: 'Done.' });
    await session.turn('Thanks');
    const last = server.requests.at(-1) as ChatRequest;
    const contents = toolContents(last);
    expect(contents).toHaveLength(2);
    expect(contents[0]).toMatch(/^\[Earlier result of get-cms-tags \{"limit":300\}: \d+ item\(s\)\. Left out/);
    expect(contents[1]).toMatch(/^\[Earlier result of list-users \{"limit":50\}: \d+ item\(s\)\./);
    expect(size(last)).toBeLessThan(4_000 * 4);
    expect(size(last)).toBeLessThan(size(afterTool) / 3);

    // The session's own history is untouched: the full results are still there.
    const kept = session.messages.filter(ToolMessage.isInstance).map((m) => String(m.content));
    expect(JSON.parse(kept[0] as string).items).toEqual(whole.items);
  });

  it('within the kept turns, stubs older results first when over the budget, never the latest round', async () => {
    const { session } = scriptedSession(server, { history: { maxTokens: 3_000, keepTurns: 5 } });
    server.script(
      { toolCalls: [{ name: 'get-cms-tags', args: { limit: 200 } }] },
      { toolCalls: [{ name: 'get-cms-categories', args: { limit: 100 } }] },
      { content: 'Both listed.' },
    );
    await session.turn('List tags then categories');
    const last = server.requests.at(-1) as ChatRequest;
    const [tags, categories] = toolContents(last);
    expect(tags).toMatch(/^\[Earlier result of get-cms-tags/);
    expect(JSON.parse(categories as string).items.length).toBeGreaterThan(0);
  });
});
