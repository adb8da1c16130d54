import { randomUUID } from 'node:crypto';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { AIMessage, createAgent, HumanMessage, humanInTheLoopMiddleware } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { abilityTools, type ApprovalRequest, type Approver, callTool, type ToolContext } from '../../src/call/index.js';
import { createContext } from '../../src/config.js';
import { AbilitiesToolkit, abilityLangChainTools, approvalInterruptOn } from '../../src/index.js';
import { getAbility } from '../../src/tools/abilities/abilities-api.js';
import { abilityDoor } from '../../src/tools/abilities/ability-doors.js';
import { lastToolResult, scriptedSession } from '../helpers/agent.js';
import { recordOutput } from '../helpers/output-log.js';
import { openAiChatProblems } from '../helpers/provider-rules.js';
import { type ChatRequest, ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testSite, unique, wordPressAtLeast } from '../helpers/site.js';
import { ABILITY, productsTitled, removeProducts } from '../wordpress/abilities/helpers.js';

/**
 * Issue #62 on the agent surfaces: the chat runner (the real ChatOpenAI against a scripted server
 * that refuses what OpenAI refuses), the toolkits with an approver, `approvals: 'interrupt'`, and
 * LangChain's humanInTheLoopMiddleware through approvalInterruptOn — for run-ability and for the
 * abilities made tools of their own. Read-only runs unasked; every other asks; declined, nothing
 * runs; approved, it runs once. Products are read back from WordPress.
 */
const PREFIX = 'Agent ability product';
let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI({ rules: openAiChatProblems }).start();
});
afterAll(async () => {
  await server.stop();
  if (wordPressAtLeast('6.9')) await removeProducts(PREFIX);
});
beforeEach(() => server.clear());

const sent = (request: ChatRequest | undefined) => (request?.tools ?? []).map((tool) => tool.function.name);
const recorder = (answer: boolean) => {
  const asked: ApprovalRequest[] = [];
  const approver: Approver = async (request) => {
    asked.push(request);
    return answer ? { approved: true } : { approved: false, reason: 'No.' };
  };
  return { asked, approver };
};
const parse = (text: unknown) => {
  recordOutput(String(text));
  return JSON.parse(String(text));
};

describe.skipIf(!wordPressAtLeast('6.9'))('site abilities on the agent surfaces', () => {
  it('the chat runner: enable-toolset adds the abilities; a read runs unasked, a write asks, declined runs nothing, approved runs once', async () => {
    const title = unique(PREFIX);
    let answer = false;
    const { session, approvals } = scriptedSession(server, { approver: async () => (answer ? { approved: true } : { approved: false, reason: 'No.' }) });
    const results: unknown[] = [];
    server.script(
      (request) => {
        expect(sent(request)).not.toContain('run-ability');
        return { toolCalls: [{ name: 'enable-toolset', args: { toolset: 'abilities' } }] };
      },
      (request) => {
        expect(sent(request)).toEqual(expect.arrayContaining(['find-abilities', 'describe-ability', 'run-ability']));
        return { toolCalls: [{ name: 'run-ability', args: { name: ABILITY.query, input: JSON.stringify({ search: 'Mug' }) } }] };
      },
      (request) => {
        results.push(lastToolResult(request));
        return { toolCalls: [{ name: 'run-ability', args: { name: ABILITY.create, input: { title } } }] };
      },
      (request) => {
        results.push(lastToolResult(request));
        return { content: 'Declined.' };
      },
    );
    await session.turn('Find the mug, then add a product.');
    expect(results[0]).toMatchObject({ ability: ABILITY.query, result: { products: [{ title: 'Ceramic Mug' }] } });
    expect(results[1]).toMatchObject({ error: { code: 'rejected_by_user' } });
    expect(approvals.map((a) => a.summary)).toEqual([expect.stringContaining('"Create a product" (cms-sandbox/product-create)')]);
    expect(await productsTitled(title)).toEqual([]);
    answer = true;
    server.script({ toolCalls: [{ name: 'run-ability', args: { name: ABILITY.create, input: { title } } }] }, { content: 'Done.' });
    await session.turn('Yes, add it.');
    expect(approvals).toHaveLength(2);
    expect(await productsTitled(title)).toHaveLength(1);
  });

  it('the toolkit with an approver: the same question; declined nothing, approved once', async () => {
    const title = unique(PREFIX);
    const no = recorder(false);
    const run = new AbilitiesToolkit({ context: createContext(testSite()), approvals: no.approver }).getTools().find((t) => t.name === 'run-ability')!;
    expect(parse(await run.invoke({ name: ABILITY.create, input: JSON.stringify({ title }) }))).toMatchObject({ error: { code: 'rejected_by_user' } });
    expect(no.asked[0]?.summary).toMatch(/cannot preview what it will change nor undo it/);
    expect(await productsTitled(title)).toEqual([]);
    const yes = recorder(true);
    const approved = new AbilitiesToolkit({ context: createContext(testSite()), approvals: yes.approver }).getTools().find((t) => t.name === 'run-ability')!;
    expect(parse(await approved.invoke({ name: ABILITY.create, input: JSON.stringify({ title }) }))).toMatchObject({ ability: ABILITY.create, result: { title } });
    expect(await productsTitled(title)).toHaveLength(1);
    // A read asks no one.
    expect(parse(await run.invoke({ name: ABILITY.query, input: '{"search":"Mug"}' }))).toMatchObject({ ability: ABILITY.query });
    expect(no.asked).toHaveLength(1);
  });

  it('approvals: interrupt — the LangGraph run pauses with the question; rejected nothing, approved once', async () => {
    const title = unique(PREFIX);
    const tools = new AbilitiesToolkit({ context: createContext(testSite()), approvals: 'interrupt' }).getTools();
    const graph = (id: string) =>
      createAgent({
        model: fakeModel().respondWithTools([{ name: 'run-ability', args: { name: ABILITY.create, input: JSON.stringify({ title }) }, id }]).respond(new AIMessage('Done.')),
        tools,
        checkpointer: new MemorySaver(),
      });
    for (const [decision, made] of [
      [{ type: 'reject', message: 'No.' }, 0],
      [{ type: 'approve' }, 1],
    ] as const) {
      const agent = graph(`call-${randomUUID()}`);
      const config = { configurable: { thread_id: randomUUID() } };
      const first = (await agent.invoke({ messages: [new HumanMessage('Add it.')] }, config)) as { __interrupt__?: Array<{ value: ApprovalRequest }> };
      expect(first.__interrupt__?.[0]?.value.summary).toContain('cms-sandbox/product-create');
      expect(await productsTitled(title)).toHaveLength(0);
      await agent.invoke(new Command({ resume: decision }), config);
      expect(await productsTitled(title)).toHaveLength(made);
    }
  });

  it('humanInTheLoopMiddleware: a read is not held up; a write is, with the question; reject runs nothing, approve runs once', async () => {
    const title = unique(PREFIX);
    const tools = new AbilitiesToolkit({ context: createContext(testSite()) }).getTools();
    const build = () =>
      createAgent({
        model: fakeModel()
          .respondWithTools([
            { name: 'run-ability', args: { name: ABILITY.query, input: '{}' }, id: `read-${randomUUID()}` },
            { name: 'run-ability', args: { name: ABILITY.create, input: JSON.stringify({ title }) }, id: `write-${randomUUID()}` },
          ])
          .respond(new AIMessage('Done.')),
        tools,
        checkpointer: new MemorySaver(),
        middleware: [humanInTheLoopMiddleware({ interruptOn: approvalInterruptOn(tools) })],
      });
    for (const [type, made] of [
      ['reject', 0],
      ['approve', 1],
    ] as const) {
      const agent = build();
      const config = { configurable: { thread_id: randomUUID() } };
      const first = (await agent.invoke({ messages: [new HumanMessage('Go.')] }, config)) as {
        __interrupt__?: Array<{ value: { actionRequests: Array<{ args: { name: string }; description: string }> } }>;
      };
      const held = first.__interrupt__?.[0]?.value.actionRequests ?? [];
      expect(held.map((a) => a.args.name)).toEqual([ABILITY.create]);
      expect(held[0]?.description).toMatch(/"Create a product" \(cms-sandbox\/product-create\).*adding, not deleting/);
      const decisions = [type === 'reject' ? { type, message: 'No.' } : { type }];
      await agent.invoke(new Command({ resume: { decisions } }), config);
      expect(await productsTitled(title)).toHaveLength(made);
    }
  });

  describe('abilities as tools of their own', () => {
    let context: ToolContext;
    beforeAll(() => {
      context = createContext(testSite());
    });

    it('are named and shaped by the ability; an invalid input is refused with no request at all', async () => {
      const yes = recorder(true);
      const tools = await abilityLangChainTools({ context, abilities: ['cms-sandbox/*'], approvals: yes.approver });
      expect(tools.map((t) => t.name)).toEqual([
        'cms-sandbox_product-create',
        'cms-sandbox_product-delete',
        'cms-sandbox_product-file',
        'cms-sandbox_products-purge',
        'cms-sandbox_products-query',
        'cms-sandbox_products-touch',
      ]);
      const file = tools.find((t) => t.name === 'cms-sandbox_product-file')!;
      expect((file.schema as { required: string[] }).required).toEqual(['product', 'shelf']);
      const before = context.client.stats.requests;
      const bad = parse(await file.invoke({ product: { title: 'x', status: 'sold' }, shelf: { category: 'y' } }));
      expect(bad).toMatchObject({ error: { code: 'invalid_params', message: expect.stringContaining('product.status: does not match any of') } });
      expect(context.client.stats.requests).toBe(before);
      expect(yes.asked).toEqual([]);
      const title = unique(PREFIX);
      expect(parse(await file.invoke({ product: { title, status: 'draft' }, shelf: { category: unique('Agent shelf') } }))).toMatchObject({ result: { title } });
      expect(yes.asked).toHaveLength(1);
      expect(await productsTitled(title)).toHaveLength(1);
      const query = tools.find((t) => t.name === 'cms-sandbox_products-query')!;
      expect(parse(await query.invoke({ search: 'Mug' }))).toMatchObject({ result: { products: [{ title: 'Ceramic Mug' }] } });
      expect(yes.asked).toHaveLength(1);
    });

    it('AbilitiesToolkit.create gives the toolset and the chosen ones; a name no site has stops it', async () => {
      const toolkit = await AbilitiesToolkit.create({ context, abilities: ['cms-sandbox/products-query'] });
      expect(toolkit.getTools().map((t) => t.name)).toEqual(['find-abilities', 'describe-ability', 'run-ability', 'cms-sandbox_products-query']);
      await expect(AbilitiesToolkit.create({ context, abilities: ['cms-sandbox/no-such'] })).rejects.toMatchObject({ code: 'ability_not_found' });
      expect(() => new AbilitiesToolkit({ context, abilities: ['cms-sandbox/*'] })).toThrow(/AbilitiesToolkit.create/);
      const readOnly = await abilityLangChainTools({ context, abilities: ['cms-sandbox/*'], readOnly: true });
      expect(readOnly.map((t) => t.name)).toEqual(['cms-sandbox_products-query']);
    });

    it('in the chat runner they are offered whatever toolsets are enabled, and ask as run-ability does', async () => {
      const title = unique(PREFIX);
      const siteTools = await abilityTools([context], ['cms-sandbox/product-create']);
      const { session, approvals } = scriptedSession(server, { approver: async () => ({ approved: false, reason: 'No.' }), siteTools });
      let result: unknown;
      server.script(
        (request) => {
          expect(sent(request)).toContain('cms-sandbox_product-create');
          expect(sent(request)).not.toContain('run-ability');
          return { toolCalls: [{ name: 'cms-sandbox_product-create', args: { title } }] };
        },
        (request) => {
          result = lastToolResult(request);
          return { content: 'Declined.' };
        },
      );
      await session.turn('Add a product.');
      expect(result).toMatchObject({ error: { code: 'rejected_by_user' } });
      expect(approvals[0]?.summary).toContain(`title: "${title}"`);
      expect(await productsTitled(title)).toEqual([]);
    });

    it('one listed as read-only whose site no longer marks it so is refused (ability_changed), never run unasked', async () => {
      const create = await getAbility(context.client, ABILITY.create);
      const stale = abilityDoor({ ...create, annotations: { readonly: true } });
      expect(stale.annotations.readOnly).toBe(true);
      const title = unique(PREFIX);
      const outcome = await callTool({ tool: stale, params: { title } }, context, {}, async () => ({ approved: true }));
      expect(outcome).toMatchObject({ ok: false, error: { code: 'ability_changed' } });
      expect(await productsTitled(title)).toEqual([]);
    });
  });
});
