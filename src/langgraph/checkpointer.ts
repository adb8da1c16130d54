import { type BaseCheckpointSaver, MemorySaver } from '@langchain/langgraph';
import { ConfigError } from '../config-error.js';

/** The PostgreSQL schema the graph's checkpoints go to: apart from the MCP server's `cms_mcp_*` tables and the change store. */
export const CHECKPOINT_SCHEMA = 'cms_langgraph';

/**
 * Where the graph keeps its threads when it runs outside a LangGraph server (in your own process,
 * LangGraph's embedded server): `CMS_STORE=postgres://…` (as `mcp --store`) gives LangGraph's
 * PostgresSaver, so a thread waiting for an approval survives the process; unset or `embedded`,
 * a MemorySaver (the process's memory). The LangGraph API server (`langgraph dev`, `langgraph up`,
 * LangSmith Deployment) puts its own checkpointer on every graph it serves (langgraph-api
 * src/graph/load.mts, getGraph), so there this one is not used: docs/langgraph.md says what
 * survives a restart there.
 */
export async function checkpointerFrom(env: NodeJS.ProcessEnv = process.env): Promise<BaseCheckpointSaver> {
  const store = env.CMS_STORE?.trim();
  if (!store || store === 'embedded') return new MemorySaver();
  if (!/^postgres(ql)?:\/\//i.test(store))
    throw new ConfigError('CMS_STORE is neither "embedded" nor a postgres://… URL (the graph keeps its threads there).', 'invalid_config');
  let postgres: typeof import('@langchain/langgraph-checkpoint-postgres');
  try {
    postgres = await import('@langchain/langgraph-checkpoint-postgres');
  } catch {
    throw new ConfigError(
      'CMS_STORE=postgres://… keeps the graph’s threads with LangGraph’s PostgreSQL checkpointer: npm install @langchain/langgraph-checkpoint-postgres.',
      'invalid_config',
    );
  }
  const saver = postgres.PostgresSaver.fromConnString(store, { schema: CHECKPOINT_SCHEMA });
  await saver.setup(); // its tables, made once (IF NOT EXISTS)
  return saver;
}
