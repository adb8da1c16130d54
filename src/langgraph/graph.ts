import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseCheckpointSaver, LangGraphRunnableConfig } from '@langchain/langgraph';
import { createAgent, type ReactAgent } from 'langchain';
import { toLangChainTool } from '../adapters/langchain.js';
import { DEFAULT_HISTORY_TOKENS, historyMiddleware } from '../agent/history.js';
import { createChatModel, MODEL_HELP, modelConfigFromEnv } from '../agent/model.js';
import { loadSystemPrompt } from '../agent/prompt.js';
import { toolCallMiddleware } from '../agent/tool-calls.js';
import { toolsetsMiddleware } from '../agent/toolsets.js';
import { networkToolsFor, selectTools, type ToolContext, tools as registry } from '../call/index.js';
import { ConfigError, createContext, numberFromEnv } from '../config.js';
import { resolveCliSiteConfig } from '../sites/site-config.js';
import { siteJournal } from '../undo/journal-path.js';
import { approvalsMiddleware } from './approvals.js';
import { checkpointerFrom } from './checkpointer.js';

export interface AdminGraphOptions {
  /** Where the settings come from (default process.env): the same variables as `cms-admin chat`. */
  env?: NodeJS.ProcessEnv;
  /** Default: the model `cms-admin chat` uses (OPENAI_API_KEY, OPENAI_BASE_URL, CMS_AGENT_MODEL). */
  model?: BaseChatModel;
  /** Default: the site of CMS_SITE (a profile), else CMS_URL, CMS_USERNAME, CMS_APP_PASSWORD, else the local sandbox. */
  context?: ToolContext;
  /** The toolsets a thread starts with: 'all' or names; default the default set (enable-toolset adds others). */
  toolsets?: 'all' | string | readonly string[];
  /** Default: CMS_STORE=postgres://… → LangGraph's PostgresSaver, else a MemorySaver (checkpointer.ts). */
  checkpointer?: BaseCheckpointSaver;
}

/** What a model calls with each request at most: the chat's CMS_HISTORY_TOKENS floor. */
const MIN_HISTORY_TOKENS = 1000;

/**
 * The chat runner's agent as a LangGraph graph (issue #60.2), for LangGraph's server, Studio, Agent
 * Chat UI and your own code: createAgent with every tool of the site's session, the default
 * toolsets sent (toolsetsMiddleware: enable-toolset per thread), the chat's tool-call and history
 * middleware and system prompt, and approvals as interrupts — LangChain's humanInTheLoopMiddleware
 * asking each tool's own question (approvals.ts): approve runs exactly the call that was asked
 * about, reject writes nothing, edit is asked again. Read-only calls and calls no review asks
 * about run without a question.
 */
export async function createAdminGraph(options: AdminGraphOptions = {}): Promise<ReactAgent> {
  const env = options.env ?? process.env;
  const modelConfig = options.model ? undefined : modelConfigFromEnv(env);
  if (!options.model && !modelConfig) throw new ConfigError(`The cms-admin graph needs a model.\n${MODEL_HELP}`, 'invalid_config');
  const maxTokens = numberFromEnv('CMS_HISTORY_TOKENS', MIN_HISTORY_TOKENS, env) ?? DEFAULT_HISTORY_TOKENS;
  const context = options.context ?? (await siteContext(env));
  // A super admin on a multisite network gets the network tools, as in the chat (docs/multisite.md).
  const network = await networkToolsFor(context.client);
  // Without a journal (CMS_JOURNAL=off) list-changes and undo-change could only say there is nothing to undo.
  const selected = selectTools(registry, { network }).filter((tool) => !tool.needsJournal || context.journal);
  const tools = selected.map((tool) => toLangChainTool(tool, context));
  return createAgent({
    model: options.model ?? createChatModel(modelConfig as NonNullable<typeof modelConfig>, { streaming: false }),
    tools,
    systemPrompt: loadSystemPrompt(),
    checkpointer: options.checkpointer ?? (await checkpointerFrom(env)),
    middleware: [
      toolsetsMiddleware({ toolsets: options.toolsets }),
      toolCallMiddleware(selected),
      historyMiddleware({ maxTokens }),
      approvalsMiddleware(tools),
    ],
  });
}

/** The site's context, journal included (CMS_JOURNAL, CMS_STORE=postgres://…, else the person's change store). */
async function siteContext(env: NodeJS.ProcessEnv): Promise<ToolContext> {
  const site = await resolveCliSiteConfig(env);
  const context = createContext(site, { journal: siteJournal(site.url, env.CMS_JOURNAL || undefined) });
  await context.client.connect(); // a wrong address or password says so now, not on the first call
  return context;
}

type AdminGraph = ReactAgent;
let built: Promise<AdminGraph> | undefined;

/**
 * The graph `langgraph.json` names (`"cms-admin": "./src/langgraph/graph.ts:graph"`): LangGraph's
 * server calls it for each run and puts its own checkpointer on what it returns. Built once per
 * process from the environment; a failed build (no model, the site down) is tried again next time.
 */
export async function graph(_config?: LangGraphRunnableConfig): Promise<AdminGraph> {
  built ??= createAdminGraph().catch((err: unknown) => {
    built = undefined;
    throw err;
  });
  return built;
}
