import { Command, MemorySaver } from '@langchain/langgraph';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, type HITLRequest, humanInTheLoopMiddleware, type InterruptOnConfig } from 'langchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testSite, unique, wp } from '../helpers/site.js';

/**
 * `@langchain/mcp-adapters` (issue #60.8) against `cms-admin mcp` on stdio, as a LangChain
 * developer uses it: the adapters check arguments against the listed schema before sending
 * them, so a number where an id goes must be in that schema; they declare no elicitation, so
 * approvals come from the server's options and the app's own question (docs/remote-mcp.md).
 */
type Tool = Awaited<ReturnType<MultiServerMCPClient['getTools']>>[number];

function adapters(extra: string[] = []): MultiServerMCPClient {
  const site = testSite();
  return new MultiServerMCPClient({
    mcpServers: {
      wordpress: {
        transport: 'stdio',
        command: process.execPath,
        args: [...cliArgs(), 'mcp', ...extra],
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: 'off' },
      },
    },
  });
}

/** An adapter tool's answer (a string, a content block or a list of them) as text. */
const text = (content: unknown): string =>
  [content]
    .flat()
    .map((c) => (typeof c === 'string' ? c : ((c as { text?: string }).text ?? '')))
    .join('');

async function newTag(): Promise<{ id: number; slug: string }> {
  return wp().post<{ id: number; slug: string }>('/wp/v2/tags', { name: unique('Adapters tag') });
}

describe('@langchain/mcp-adapters: a number where an id goes', () => {
  let mcp: MultiServerMCPClient;
  let byName: Map<string, Tool>;
  beforeAll(async () => {
    mcp = adapters();
    byName = new Map((await mcp.getTools()).map((tool) => [tool.name, tool]));
  });
  afterAll(() => mcp.close());

  it('tool.invoke({id: <number>}) updates the tag it names (read back), as {id: "<slug>"} does', async () => {
    const tag = await newTag();
    await byName.get('update-tag')!.invoke({ id: tag.id, description: 'by number' });
    expect((await wp().get<{ description: string }>(`/wp/v2/tags/${tag.id}`)).description).toBe('by number');
    await byName.get('update-tag')!.invoke({ id: tag.slug, description: 'by slug' });
    expect((await wp().get<{ description: string }>(`/wp/v2/tags/${tag.id}`)).description).toBe('by slug');
  });

  it('lists of ids and user ids take numbers too: find-posts by term_ids and author', async () => {
    // A post of its own with a tag of its own: what other files did to the shared site's posts does not matter.
    const tag = await newTag();
    const post = await wp().post<{ id: number; author: number }>('/wp/v2/posts', { title: unique('Adapters post'), status: 'publish', tags: [tag.id] });
    const found = JSON.parse(text(await byName.get('find-posts')!.invoke({ taxonomy: 'post_tag', term_ids: [tag.id], limit: 100 })));
    expect(found.items.map((p: { id: number }) => p.id)).toEqual([post.id]);
    const byAuthor = JSON.parse(text(await byName.get('find-posts')!.invoke({ author: post.author, limit: 1 })));
    expect(byAuthor.total).toBeGreaterThan(0);
  });

  it('a value that is neither a number nor a string is still refused before it is sent', async () => {
    await expect(byName.get('update-tag')!.invoke({ id: true, description: 'x' } as never)).rejects.toThrow(/id/);
  });
});

describe('@langchain/mcp-adapters: approvals', () => {
  let model: ScriptedOpenAI;
  beforeAll(async () => {
    model = await new ScriptedOpenAI().start();
  });
  afterAll(() => model.stop());

  it('declare no elicitation: a call that needs approval is refused, naming the way, and nothing is deleted', async () => {
    const tag = await newTag();
    const mcp = adapters();
    try {
      const tool = (await mcp.getTools()).find((t) => t.name === 'delete-tag')!;
      await expect(tool.invoke({ id: tag.id })).rejects.toThrow(/approval_unavailable[\s\S]*--approve/);
      expect((await wp().get<{ id: number }>(`/wp/v2/tags/${tag.id}`)).id).toBe(tag.id);
    } finally {
      await mcp.close();
    }
  });

  it("the server's --approve and the app's own question (humanInTheLoopMiddleware, the server's dry run as its words): approve deletes, reject keeps", async () => {
    // As docs/remote-mcp.md shows it.
    const mcp = adapters(['--approve', 'delete-tag']);
    try {
      const tools = await mcp.getTools();
      const interruptOn: Record<string, InterruptOnConfig> = {};
      for (const tool of tools) {
        if ((tool.metadata?.annotations as { readOnlyHint?: boolean } | undefined)?.readOnlyHint) continue;
        const preview = async (args: Record<string, unknown>) => JSON.parse(text(await tool.invoke({ ...args, dry_run: true })));
        interruptOn[tool.name] = {
          allowedDecisions: ['approve', 'reject'],
          when: async ({ toolCall }) => (await preview(toolCall.args)).needs_approval === true,
          description: async (toolCall) => (await preview(toolCall.args)).would,
        };
      }
      const agent = createAgent({
        model: new ChatOpenAI({ model: 'scripted', apiKey: 'x', configuration: { baseURL: model.url } }),
        tools,
        checkpointer: new MemorySaver(),
        middleware: [humanInTheLoopMiddleware({ interruptOn })],
      });
      for (const decision of ['approve', 'reject'] as const) {
        const tag = await newTag();
        model.clear();
        model.script({ toolCalls: [{ name: 'delete-tag', args: { id: tag.id } }] }, { content: 'done' });
        const config = { configurable: { thread_id: unique(decision) } };
        const paused = await agent.invoke({ messages: [{ role: 'user', content: 'delete it' }] }, config);
        const request = paused.__interrupt__?.[0]?.value as HITLRequest;
        expect(request.actionRequests[0]).toMatchObject({ name: 'delete-tag', args: { id: tag.id } });
        expect(request.actionRequests[0]!.description).toMatch(new RegExp(`delete the tag .*id ${tag.id}`));
        await agent.invoke(new Command({ resume: { decisions: [{ type: decision }] } }), config);
        const left = await wp().get<unknown[]>('/wp/v2/tags', { include: [tag.id] });
        expect(left.length, decision).toBe(decision === 'approve' ? 0 : 1);
      }
    } finally {
      await mcp.close();
    }
  });
});
