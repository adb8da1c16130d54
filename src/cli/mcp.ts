import type { Command } from 'commander';
import { createContext } from '../config.js';
import { resolveCliSiteConfig } from './site-config.js';
import { ANSWER_BUDGET_FLAG, contextOptions, filterFromOptions, type FilterOptions } from './shared.js';

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve every tool over the Model Context Protocol on stdio (for MCP clients)')
    .option('--read-only', 'expose only read-only tools')
    .option('--toolkit <name>', 'expose one toolkit only: taxonomy or users')
    .option('--allow <names>', 'comma-separated allowlist of tool names')
    .option('--reveal-reset-links', 'return reset links in results (they reach the MCP client and its model)')
    .option('--strict', 'list strict-ready input schemas (all params required, optional ones nullable)')
    .option('--audit-log <file>', 'append a JSON line per write to this file (default: env CMS_AUDIT_LOG)')
    .option(...ANSWER_BUDGET_FLAG)
    .addHelpText(
      'after',
      `
Site from CMS_URL, CMS_USERNAME, CMS_APP_PASSWORD (or the local sandbox when CMS_URL is unset).
Example client config:
  {"mcpServers": {"wordpress": {"command": "npx", "args": ["cms-admin", "mcp"],
    "env": {"CMS_URL": "https://example.com", "CMS_USERNAME": "admin", "CMS_APP_PASSWORD": "…"}}}}`,
    )
    .action(async (options: FilterOptions & { revealResetLinks?: boolean; strict?: boolean }) => {
      const filter = filterFromOptions(options);
      const context = createContext(await resolveCliSiteConfig(), {
        ...contextOptions(options),
        secretsTo: options.revealResetLinks ? 'result' : undefined,
      });
      // Fail at start, on stderr, rather than on the first call: stdout belongs to the protocol.
      await context.client.connect();
      const { serveStdio } = await import('../mcp.js');
      await serveStdio(context, filter, { strict: Boolean(options.strict) });
    });
}
