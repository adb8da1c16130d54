import type { AnyToolDefinition, ToolkitName } from '../tools/define-tool.js';
import { TOOLSET_OF, type ToolsetName } from './toolsets.js';

export interface ToolFilter {
  /** Only tools of this toolkit. */
  toolkit?: ToolkitName;
  /** Only tools annotated read-only. */
  readOnly?: boolean;
  /** Only these tool names (an allowlist); unknown names are an error. */
  allow?: readonly string[];
  /**
   * The site is a multisite network: add the network tools and the network forms of list-users
   * and delete-user. Unset or false: a single site's tools and schemas, unchanged.
   */
  network?: boolean;
  /** A session on several sites (#38): list-sites is offered (call/fleet.ts adds `site` to the others). */
  fleet?: boolean;
  /**
   * Whether the site has WordPress's Abilities API (6.9+; the surfaces ask its REST index when a
   * session starts): false leaves the abilities toolset out, and enable-toolset says why. Unset:
   * offered (a session that has not asked; its tools answer `abilities_unavailable` there).
   */
  abilitiesApi?: boolean;
  /**
   * Only tools of these toolsets (toolsets.ts; `resolveToolsets` reads `--toolsets`). Unset: every
   * toolset (invoke and the tool shell reach any tool; the model-facing surfaces set it).
   */
  toolsets?: readonly ToolsetName[];
}

/** Applies a filter to a list of tools; the adapters all filter through here. */
export function selectTools(all: readonly AnyToolDefinition[], filter: ToolFilter = {}): AnyToolDefinition[] {
  if (filter.allow) {
    const known = new Set(all.map((t) => t.name));
    const unknown = filter.allow.filter((name) => !known.has(name));
    if (unknown.length) throw new Error(`Unknown tool name(s) in allowlist: ${unknown.join(', ')}`);
  }
  return all
    .filter((tool) => (!tool.network || filter.network) && (!tool.fleet || filter.fleet) && !(tool.abilitiesApi && filter.abilitiesApi === false))
    .map((tool) => (filter.network && tool.onNetwork) || tool)
    .filter(
    (tool) =>
      (!filter.toolkit || tool.toolkit === filter.toolkit || Boolean(tool.alsoIn?.includes(filter.toolkit))) &&
      // A site's ability the operator chose as a tool (`abilities` option) has no toolset: it is in every session.
      (!filter.toolsets || !TOOLSET_OF[tool.name] || filter.toolsets.includes(TOOLSET_OF[tool.name] as ToolsetName)) &&
      (!filter.readOnly || tool.annotations.readOnly) &&
      (!filter.allow || filter.allow.includes(tool.name)),
  );
}
