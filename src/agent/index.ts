/**
 * `cms-admin-toolkit/agent`: the chat runner (createAgent + approvals) for embedding. Kept out
 * of the main entry: it loads `langchain` and `@langchain/openai`.
 */
export {
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  approveAll,
  refuseAll,
  serializeApprover,
} from './approvals.js';
export { createChatModel, DEFAULT_MODEL, type ModelConfig, modelConfigFromEnv } from './model.js';
export type { TokenUsage } from './messages.js';
export { loadSystemPrompt } from './prompt.js';
export {
  type AdminAgentOptions,
  ChatSession,
  DEFAULT_MAX_STEPS,
  describeModelError,
  type ToolCallRecord,
  type TurnEvent,
  type TurnResult,
} from './runner.js';
export { toolsetsMiddleware, type ToolsetsMiddlewareOptions } from './toolsets.js';
