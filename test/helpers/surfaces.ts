import { randomUUID } from 'node:crypto';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { AIMessage, createAgent, HumanMessage, humanInTheLoopMiddleware } from 'langchain';
import type { ApprovalRequest, Approver, ToolContext } from '../../src/call/index.js';
import { allLangChainTools, approvalInterruptOn } from '../../src/index.js';
import { lastToolResult, scriptedSession } from './agent.js';
import { runCli } from './cli.js';
import { recordOutput } from './output-log.js';
import { ScriptedOpenAI } from './scripted-openai.js';
import { testContext, testSite } from './site.js';
import { REMOTE_SURFACES } from './surfaces-remote.js';

/**
 * The surfaces of the surface property (#58 "By construction"), each driven as its user drives it,
 * every question declined: what the person (or app) was asked, and what came back. `asked` is the
 * question as that surface shows it (a summary and the params that would run, or the message).
 */
export interface Seen {
  asked?: string;
  /** What the call answered (text): compared between forms where the call ran on the same site state (invoke's dry run). */
  answer: string;
}

export interface Surface {
  call(tool: string, params: Record<string, unknown>): Promise<Seen>;
  stop?(): Promise<void> | void;
}

/** The site a surface works on: the suite's single site, or the test network's main site (the network tools). */
export interface Target {
  env: { CMS_URL: string; CMS_USERNAME: string; CMS_APP_PASSWORD: string };
  context(): ToolContext;
  network: boolean;
}

export function siteTarget(): Target {
  const site = testSite();
  return { env: { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword }, context: testContext, network: false };
}

const question = (r: ApprovalRequest) => `${r.summary}\n${JSON.stringify(r.args)}`;
const no: Approver = async () => ({ approved: false, reason: 'Declined in the surface property test.' });

/** A recorder that declines, and what it was asked (one call at a time). */
function decliner() {
  const asked: ApprovalRequest[] = [];
  const approver: Approver = async (request) => {
    asked.push(request);
    return no(request);
  };
  return { asked, approver };
}

type Interrupted = { __interrupt__?: Array<{ value: Record<string, any> }>; messages: Array<{ content: unknown }> };

/** A LangGraph agent (createAgent, a checkpointer, a thread) whose model makes this one tool call. */
async function throughGraph(target: Target, tool: string, params: Record<string, unknown>, hitl: boolean): Promise<Seen> {
  const tools = allLangChainTools({ context: target.context(), network: target.network, toolsets: 'all', ...(hitl ? {} : { approvals: 'interrupt' as const }) });
  const model = fakeModel().respondWithTools([{ name: tool, args: params, id: `call-${randomUUID()}` }]).respond(new AIMessage('Done.'));
  const middleware = hitl ? [humanInTheLoopMiddleware({ interruptOn: approvalInterruptOn(tools) })] : [];
  const agent = createAgent({ model, tools, checkpointer: new MemorySaver(), middleware });
  const config = { configurable: { thread_id: randomUUID() } };
  const first = (await agent.invoke({ messages: [new HumanMessage('Do it.')] }, config)) as unknown as Interrupted;
  const value = first.__interrupt__?.[0]?.value;
  if (!value) return { answer: String(first.messages.at(-2)?.content ?? '') };
  const asked = hitl ? String(value.actionRequests?.[0]?.description) : question(value as ApprovalRequest);
  const reject = hitl ? { decisions: [{ type: 'reject', message: 'No.' }] } : { type: 'reject', message: 'No.' };
  const done = (await agent.invoke(new Command({ resume: reject }), config)) as unknown as Interrupted;
  return { asked, answer: String(done.messages.at(-2)?.content ?? '') };
}

export type SurfaceName = keyof typeof SURFACES;

export const SURFACES = {
  /** `cms-admin invoke`: the operator's own call, run as given (no question); its dry run, so both forms run on one site state. */
  async invoke(target: Target): Promise<Surface> {
    return {
      async call(tool, params) {
        const run = await runCli(['invoke', '--dry-run', '--json', JSON.stringify({ tool, params })], { env: { ...target.env, CMS_SITE: undefined } });
        return { answer: run.stdout.trim() };
      },
    };
  },
  /** The toolkits with an approver (`approvals: fn`). */
  async toolkit(target: Target): Promise<Surface> {
    let current = decliner();
    const tools = allLangChainTools({ context: target.context(), network: target.network, toolsets: 'all', approvals: (request) => current.approver(request) });
    return {
      async call(tool, params) {
        current = decliner();
        // undo-change needs a journal, which this context has not: the toolkits leave it out.
        const offered = tools.find((t) => t.name === tool);
        if (!offered) return { answer: `${tool} is not among the toolkit's tools` };
        const answer = String(await offered.invoke(params));
        return { ...(current.asked[0] && { asked: question(current.asked[0]) }), answer };
      },
    };
  },
  /** `approvals: 'interrupt'`: a real LangGraph interrupt, resumed with reject. */
  async interrupt(target: Target): Promise<Surface> {
    return { call: (tool, params) => throughGraph(target, tool, params, false) };
  },
  /** LangChain's humanInTheLoopMiddleware with approvalInterruptOn(tools), resumed with reject. */
  async hitl(target: Target): Promise<Surface> {
    return { call: (tool, params) => throughGraph(target, tool, params, true) };
  },
  /** The chat runner (ChatSession) with the real ChatOpenAI against a scripted model server. */
  async chat(target: Target): Promise<Surface> {
    const server = await new ScriptedOpenAI().start();
    return {
      async call(tool, params) {
        server.clear();
        const seen = decliner();
        const toolsets = ['taxonomy', 'taxonomy-cleanup', 'users', 'roles', 'accounts-bulk', 'network', 'changes', 'abilities'] as const;
        const { session } = scriptedSession(server, { approver: seen.approver, context: target.context(), filter: { toolsets, network: target.network } });
        let answer = '';
        server.script({ toolCalls: [{ name: tool, args: params }] }, (request) => {
          answer = JSON.stringify(lastToolResult(request));
          return { content: 'Done.' };
        });
        await session.turn('Do it.');
        recordOutput(answer);
        return { ...(seen.asked[0] && { asked: question(seen.asked[0]) }), answer };
      },
      stop: () => server.stop(),
    };
  },
  ...REMOTE_SURFACES,
} satisfies Record<string, (target: Target) => Promise<Surface>>;
