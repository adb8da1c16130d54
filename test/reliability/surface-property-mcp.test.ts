import { describeSurfaceProperty } from './surface-property.js';

/** The surface property (#58; test/reliability/surface-property.ts) over MCP: stdio and Streamable HTTP, both revisions. */
describeSurfaceProperty('mcp');
