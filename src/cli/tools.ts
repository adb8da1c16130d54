import type { Command } from 'commander';
import { describeTool } from '../adapters/json-schema.js';
import { selectTools, tools } from '../call/index.js';
import { filterFromOptions, type FilterOptions } from './shared.js';

export function registerToolsCommand(program: Command): void {
  program
    .command('tools')
    .description('List every tool: name, toolkit, description, parameters and annotations')
    .option('--json', 'print JSON: [{name, toolkit, description, inputSchema, annotations}]')
    .option('--toolkit <name>', 'only tools of one toolkit: taxonomy or users')
    .option('--read-only', 'only read-only tools')
    .option('--allow <names>', 'comma-separated allowlist of tool names')
    .action((options: FilterOptions & { json?: boolean }) => {
      const described = selectTools(tools, filterFromOptions(options)).map(describeTool);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(described, null, 2)}\n`);
        return;
      }
      for (const tool of described) {
        const flags = [
          tool.annotations.readOnly ? 'read-only' : 'writes',
          tool.annotations.destructive ? 'destructive' : '',
        ]
          .filter(Boolean)
          .join(', ');
        const params = Object.keys((tool.inputSchema.properties as object | undefined) ?? {});
        process.stdout.write(
          `${tool.name}  [${[tool.toolkit, ...(tool.alsoIn ?? [])].join(', ')}; ${flags}]\n  ${tool.description}\n  params: ${params.join(', ') || '(none)'}\n\n`,
        );
      }
    });
}
