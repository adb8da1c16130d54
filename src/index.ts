export * from './client/index.js';
export { ConfigError, type ContextOptions, createContext, resolveSiteConfig, type SiteConfig, siteConfigFromEnv } from './config.js';
export { invoke, isUsageError, parseEnvelope, USAGE_ERROR_CODES } from './call/envelope.js';
export { type Approvals, toLangChainTool } from './adapters/langchain.js';
export { type ApprovalInterrupt, type ApprovalResume, interruptApprover } from './adapters/interrupt.js';
export { type ApprovalInterruptOnConfig, approvalInterruptOn } from './adapters/hitl.js';
export {
  AbilitiesToolkit,
  abilityLangChainTools,
  allLangChainTools,
  ChangesToolkit,
  type NamedSite,
  type SiteCredentials,
  TaxonomyToolkit,
  TOOLKIT_TOOLSETS,
  type ToolkitOptions,
  UserToolkit,
} from './toolkits.js';
export {
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  type AnyToolDefinition,
  abilityTools,
  callTool,
  decideCall,
  type DecidedCall,
  type CallReview,
  findTool,
  hasAbilitiesApi,
  isNetwork,
  networkToolsFor,
  OPERATORS_OWN_CALL,
  type Policy,
  reviewCall,
  resolveCall,
  type ResolvedCall,
  runTool,
  DEFAULT_TOOLSETS,
  resolveToolsets,
  selectTools,
  TOOLSETS,
  type ToolsetName,
  type ToolAnnotations,
  type ToolContext,
  type ToolDefinition,
  ToolError,
  type ToolErrorPayload,
  type ToolFilter,
  type ToolkitName,
  type ToolOutcome,
  tools,
} from './call/index.js';
export {
  type ChangeEntry,
  type ChangeJournal,
  fileJournal,
  JournalError,
  memoryJournal,
} from './undo/journal.js';
export { type UndoItemConflict, type UndoOptions, type UndoReport, undoChange, undoLast } from './undo/undo.js';
