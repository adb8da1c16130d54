import type { Command } from 'commander';
import { describeTool, listedInputSchema } from '../adapters/json-schema.js';
import {
  type AnyToolDefinition,
  DEFAULT_TOOLSETS,
  fleetTools,
  selectTools,
  type ToolFilter,
  TOOLSET_NAMES,
  TOOLSET_OF,
  TOOLSETS,
  type ToolsetName,
  tools,
  ToolsetSession,
} from '../call/index.js';
import { filterFromOptions, type FilterOptions, TOOLSETS_FLAG } from './shared.js';

type ToolsOptions = FilterOptions & { json?: boolean; site?: string; sites?: string };

/** Where a toolset's tools are offered at all: the network and fleet ones by the session's shape. */
const WHERE: Partial<Record<ToolsetName, string>> = {
  network: 'on a multisite network, to a super admin',
  fleet: 'in a session of several sites',
  abilities: 'on WordPress 6.9 or later',
};

export function registerToolsCommand(program: Command): void {
  program
    .command('tools')
    .description('List the tools by toolset: name, description, parameters and annotations')
    .option('--json', 'print JSON: [{name, toolset, toolkit, description, inputSchema, annotations}]')
    .option(...TOOLSETS_FLAG)
    .option('--sites <sites>', 'what a session on these site profiles (a,b | @group | all) is offered: every tool takes site')
    .option('--toolkit <name>', 'only tools of one toolkit: taxonomy or users')
    .option('--read-only', 'only read-only tools')
    .option('--allow <names>', 'comma-separated allowlist of tool names')
    .addHelpText(
      'after',
      `
Without --site or --sites: every tool, the network and several-site ones too (list-users and
delete-user in their single-site form). With --site NAME
(or --sites): what a chat or mcp session there is offered (the site is asked whether it is a
network you administer), starting with the default toolsets (${DEFAULT_TOOLSETS.slice(0, 3).join(', ')})
unless --toolsets says; a model adds the others with enable-toolset.`,
    )
    .action(async (options: ToolsOptions) => {
      const filter = filterFromOptions(options);
      const session = options.site !== undefined || options.sites !== undefined ? await sessionFilter(options, filter) : undefined;
      const shown = session ? session.tools : everyTool(filter);
      if (options.json) {
        // The params as MCP lists them: where an id goes, a name may (#52.1), the id as a number too (#60.8).
        const described = shown.map((tool) => ({ ...describeTool(tool), inputSchema: listedInputSchema(tool), toolset: TOOLSET_OF[tool.name] }));
        process.stdout.write(`${JSON.stringify(described, null, 2)}\n`);
        return;
      }
      for (const toolset of TOOLSET_NAMES) {
        const members = shown.filter((tool) => TOOLSET_OF[tool.name] === toolset);
        if (!members.length) continue;
        const notes = [count(members.length), DEFAULT_TOOLSETS.includes(toolset) ? 'default' : '', session ? '' : WHERE[toolset]];
        process.stdout.write(`== ${toolset}: ${TOOLSETS[toolset]} (${notes.filter(Boolean).join('; ')})\n\n`);
        for (const tool of members) process.stdout.write(toolText(tool));
      }
      process.stdout.write(`${session ? session.summary : summary(shown, filter)}\n`);
    });
}

/** Every tool the filter keeps, the network and several-site ones too; list-users and delete-user in their single-site form. */
function everyTool(filter: ToolFilter): AnyToolDefinition[] {
  const kept = new Set(selectTools(tools, { ...filter, network: true, fleet: true }).map((tool) => tool.name));
  return tools.filter((tool) => kept.has(tool.name));
}

const count = (n: number) => `${n} tool${n === 1 ? '' : 's'}`;

function toolText(definition: AnyToolDefinition): string {
  const tool = describeTool(definition);
  const flags = [tool.annotations.readOnly ? 'read-only' : 'writes', tool.annotations.destructive ? 'destructive' : '']
    .filter(Boolean)
    .join(', ');
  const params = Object.keys((tool.inputSchema.properties as object | undefined) ?? {});
  return `${tool.name}  [${flags}]\n  ${tool.description}\n  params: ${params.join(', ') || '(none)'}\n\n`;
}

/** The last line without a site: how many tools, and what a session starts with. */
function summary(shown: readonly AnyToolDefinition[], filter: ToolFilter): string {
  const sets = new Set(shown.map((tool) => TOOLSET_OF[tool.name]));
  const start = filter.toolsets ?? DEFAULT_TOOLSETS;
  const single = selectTools(tools, { ...filter, toolsets: start }).length;
  const extra = (flag: 'network' | 'fleet') =>
    selectTools(tools, { ...filter, toolsets: start, [flag]: true }).length - single;
  return (
    `${count(shown.length)} in ${sets.size} toolsets. A session (chat, mcp) starts with ${start.filter((s) => !WHERE[s]).join(', ')}: ` +
    `${count(single)} on one site, ${extra('network')} more on a network for a super admin, ${extra('fleet')} more with several sites; ` +
    'enable-toolset adds the others. `cms-admin tools --site NAME` lists what a session there is offered.'
  );
}

/** --site / --sites: the session's own list (network asked of the site; several sites: `site` on every tool). */
async function sessionFilter(options: ToolsOptions, filter: ToolFilter): Promise<{ tools: AnyToolDefinition[]; summary: string }> {
  const { sessionSites } = await import('./sites/fleet-session.js');
  const fleet = options.sites !== undefined ? sessionSites(options.sites, {}) : undefined;
  if (fleet) {
    const toolsets = new ToolsetSession(tools, { ...filter, fleet: true });
    const offered = fleetTools(toolsets.tools());
    return { tools: offered, summary: sessionSummary(offered.length, `${fleet.sites.length} sites`, toolsets) };
  }
  const { resolveCliSiteConfig } = await import('./site-config.js');
  const { createContext } = await import('../config.js');
  const { hasAbilitiesApi, networkToolsFor, ABILITIES_ABSENT } = await import('../call/index.js');
  const site = await resolveCliSiteConfig();
  const context = createContext(site, { journal: 'off' });
  await context.client.connect();
  const network = await networkToolsFor(context.client);
  const abilitiesApi = await hasAbilitiesApi(context.client);
  const toolsets = new ToolsetSession(tools, { ...filter, network, abilitiesApi });
  const offered = toolsets.tools();
  const where = network ? 'this multisite network (as its super admin)' : 'this site';
  // Why the abilities toolset is absent here (issue #62): the list says it.
  const absent = abilitiesApi ? '' : ` No abilities toolset: ${ABILITIES_ABSENT}.`;
  return { tools: offered, summary: `${sessionSummary(offered.length, where, toolsets)}${absent}` };
}

function sessionSummary(n: number, where: string, toolsets: ToolsetSession): string {
  const offered = toolsets.offered();
  const more = offered.length ? `; enable-toolset adds ${offered.join(', ')}` : '';
  return `${count(n)} offered on ${where}, toolsets ${toolsets.enabled.join(', ')}${more}.`;
}
