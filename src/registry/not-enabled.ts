import type { AnyToolDefinition } from '../tools/define-tool.js';
import { ABILITIES_ABSENT } from '../tools/abilities/abilities-api.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';
import type { ToolFilter } from './select.js';
import { ENABLE_TOOLSET } from './toolset-session.js';
import { TOOLSET_OF, type ToolsetName } from './toolsets.js';

type Described = Pick<AnyToolDefinition, 'name' | 'annotations' | 'toolkit' | 'alsoIn' | 'network' | 'fleet' | 'abilitiesApi'>;

/**
 * Why a registered tool is not offered in this session, and what to do: the one `tool_not_allowed`
 * of every surface (the envelope, `invoke`, the tool shell, MCP, the chat). Two kinds of option
 * (docs/safety.md "What limits a session"): `--read-only`, `--allow` and `--toolkit` (a toolkit's
 * `readOnly`, `allow`, its class) LIMIT a session — nothing in it reaches past them; `--toolsets`
 * only chooses where it STARTS — enable-toolset adds any other toolset, so its hint says how.
 */
export function whyNotEnabled(tool: Described, filter: ToolFilter): { why: string; hint: string } {
  const { name } = tool;
  if (filter.readOnly && !tool.annotations.readOnly)
    return { why: 'the session is read-only (--read-only), a limit: it writes nothing', hint: 'Start a session without --read-only to write.' };
  if (filter.allow && !filter.allow.includes(name))
    return { why: 'the session is limited to the tools --allow names', hint: `Start a session whose --allow names ${name}.` };
  if (filter.toolkit && tool.toolkit !== filter.toolkit && !tool.alsoIn?.includes(filter.toolkit))
    return { why: `the session is limited to the ${filter.toolkit} toolkit (--toolkit)`, hint: `Start a session without --toolkit ${filter.toolkit}.` };
  if (tool.network && !filter.network)
    return { why: 'it is for a multisite network, and this is not one (or the account is not a super admin)', hint: 'Run it on a network’s main site, as a super admin.' };
  if (tool.abilitiesApi && filter.abilitiesApi === false)
    return { why: ABILITIES_ABSENT, hint: 'Update WordPress to 6.9 or later on that site to use its abilities.' };
  if (tool.fleet && !filter.fleet) return { why: 'it lists the sites of a session on several sites', hint: 'Start the session with --sites.' };
  const toolset = TOOLSET_OF[name] as ToolsetName | undefined;
  if (toolset && filter.toolsets && !filter.toolsets.includes(toolset))
    return { why: `it is in the toolset ${toolset}, not enabled`, hint: `Call ${ENABLE_TOOLSET} with {"toolset": "${toolset}"} first.` };
  return { why: 'this session does not offer it', hint: 'List the tools this session offers (cms-admin tools, /tools, tools/list).' };
}

/** The `tool_not_allowed` error for a registered tool this session does not offer (see whyNotEnabled). */
export function notEnabled(tool: Described, filter: ToolFilter): ToolErrorPayload {
  const { why, hint } = whyNotEnabled(tool, filter);
  return { code: 'tool_not_allowed', message: `Tool "${tool.name}" is not enabled in this session: ${why}.`, hint };
}
