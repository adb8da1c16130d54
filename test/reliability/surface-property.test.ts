import { describeSurfaceProperty } from './surface-property.js';

/**
 * The surface property (#58; test/reliability/surface-property.ts) on the command line's `invoke`
 * and the in-process surfaces: the toolkits with an approver, `approvals: 'interrupt'`,
 * humanInTheLoopMiddleware and the chat runner. The tool shell and MCP have files of their own
 * (surface-property-shell, surface-property-mcp), so a run's workers share the pairs.
 */
describeSurfaceProperty('calls');
