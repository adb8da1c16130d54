/**
 * The call pipeline, as every surface uses it (chat runner, LangChain tools, MCP, CLI, tool shell,
 * fleets): a call is resolved once (resolve.ts: the session's tool, names to ids, validated), decided
 * (decide.ts: review, then the question), and exactly the decided call run (run-tool.ts: dry run or
 * execute, journal, audit, answer budget, redaction). `runTool` takes only a decided call, so no
 * surface reaches a write without its review (#58.5). Tools never import this room; surfaces
 * import only this file of it (test/unit/architecture.test.ts).
 */
export * from '../registry/index.js';
export { type ToolOutcome, internalError, runTool } from './run-tool.js';
export { type ApprovalDecision, type ApprovalRequest, type Approver, approvalRequest, approveAll, type FailedReview, notApproved, reviewCall } from './approval.js';
export { type Checked, checkCall, invalidParams, type RawCall } from './check.js';
export { closestNames } from './closest.js';
export { isResolved, type Resolution, type ResolvedCall, resolveCall } from './resolve.js';
export { type DecidedCall, type Decision, decideCall, OPERATORS_OWN_CALL, type Policy, type Question, questionOf } from './decide.js';
export { callTool, invoke, isUsageError, parseEnvelope, USAGE_ERROR_CODES } from './envelope.js';
export { namedSchema, takesNames } from './names.js';
export { type Fleet, type FleetSite, fleetTools, isFleet, pickSites, runOnFleet, SITE } from './fleet.js';
export { type FleetAnswer, namingSite, type SiteResult, siteLine } from './fleet-write.js';
export { type FanOutResult, fanOut } from './fan-out.js';
// What a retried call may already have done (mcp/modern.ts names it when a used approval comes back).
export { type UnfinishedChange, unfinishedChanges } from '../undo/journal-read.js';
