/**
 * `cms-admin-toolkit/langgraph`: the chat runner's agent as a ready LangGraph graph, for
 * LangGraph's server (`langgraph.json` names `graph`), Studio, Agent Chat UI and your own code
 * (docs/langgraph.md). Loads langchain, `@langchain/langgraph` and `@langchain/openai`; with
 * CMS_STORE=postgres://…, `@langchain/langgraph-checkpoint-postgres`. Never the LangGraph server.
 */
export { type AdminGraphOptions, createAdminGraph, graph } from './graph.js';
export { approvalsMiddleware, bothSpellings } from './approvals.js';
export { CHECKPOINT_SCHEMA, checkpointerFrom } from './checkpointer.js';
