/**
 * The call pipeline, as every surface uses it (chat runner, LangChain tools, MCP, CLI, tool shell):
 * a call is resolved against the registry (envelope.ts), validated (tools/params.ts), reviewed and
 * approved (approval.ts), then run (run-tool.ts: dry run or execute, journal, audit, answer budget,
 * redaction). Tools never import this room; surfaces import only this file of it.
 */
export * from '../registry/index.js';
export { type ToolOutcome, internalError, invalidParams, runTool } from './run-tool.js';
export {
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  approvalRequest,
  approveAll,
  type CallDecision,
  decideCall,
  type FailedReview,
  notApproved,
  reviewCall,
} from './approval.js';
export {
  closestNames,
  hasNames,
  withIds,
  withNames,
  withPlaceholders,
  parseWithNames,
  invoke,
  isUsageError,
  parseEnvelope,
  type ResolvedCall,
  resolveCall,
  USAGE_ERROR_CODES,
} from './envelope.js';
export { namedSchema, takesNames } from './names.js';
export { type Fleet, type FleetSite, fleetTools, isFleet, pickSites, runOnFleet, SITE } from './fleet.js';
export { type FleetAnswer, namingSite, type SiteResult, siteLine } from './fleet-write.js';
export { type FanOutResult, fanOut } from './fan-out.js';
// What a retried call may already have done (mcp/modern.ts names it when a used approval comes back).
export { type UnfinishedChange, unfinishedChanges } from '../undo/journal-read.js';
