import type { AnyToolDefinition } from '../tools/define-tool.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';
import { ABILITIES_ABSENT } from '../tools/abilities/abilities-api.js';
import { type ToolFilter, selectTools } from './select.js';
import { resolveToolsets, TOOLSET_NAMES, TOOLSET_OF, TOOLSETS, type ToolsetName } from './toolsets.js';

/** The session tool that adds a toolset (issue #51); offered only while some toolset is not enabled. */
export const ENABLE_TOOLSET = 'enable-toolset';

/** enable-toolset as a surface lists it: its description names the toolsets it can add. */
export interface EnableToolsetSpec {
  name: typeof ENABLE_TOOLSET;
  description: string;
  /** JSON schema, strict-valid as it is (one required enum). */
  inputSchema: {
    type: 'object';
    properties: { toolset: { type: 'string'; enum: string[] } };
    required: ['toolset'];
    additionalProperties: false;
  };
}

export type EnableOutcome =
  | { ok: true; result: { enabled: ToolsetName; tools: string[]; toolsets: ToolsetName[] } }
  | { ok: false; error: ToolErrorPayload };

/**
 * One session's toolsets: which are enabled, the tools that gives, and enable-toolset. Surfaces
 * keep one per session (the chat runner, each MCP session, the toolsets middleware per thread):
 * enabling in one never widens another.
 */
export class ToolsetSession {
  readonly #all: readonly AnyToolDefinition[];
  readonly #base: ToolFilter;
  readonly #enabled: Set<ToolsetName>;
  readonly #available: ToolsetName[];

  /** `all`: the registry's tools; `filter.toolsets`: the starting set (unset: the default set). */
  constructor(all: readonly AnyToolDefinition[], filter: ToolFilter = {}) {
    const { toolsets, ...base } = filter;
    this.#all = all;
    this.#base = base;
    this.#enabled = new Set(toolsets ?? resolveToolsets(undefined));
    // A toolset is there to enable when it has a tool in this session (network tools only on a
    // network, list-sites only with several sites, none of a read-only session's writes).
    const present = new Set(selectTools(all, base).map((tool) => TOOLSET_OF[tool.name]));
    this.#available = TOOLSET_NAMES.filter((name) => present.has(name));
  }

  /** The enabled toolsets that have tools in this session (network only on a network …). */
  get enabled(): ToolsetName[] {
    return this.#available.filter((name) => this.#enabled.has(name));
  }

  /** The filter for this session's tools now (the surfaces' selectTools, resolveCall). */
  get filter(): ToolFilter {
    return { ...this.#base, toolsets: this.enabled };
  }

  /** This session's tools now (enable-toolset aside). */
  tools(): AnyToolDefinition[] {
    return selectTools(this.#all, this.filter);
  }

  /** Toolsets this session could add: present, not enabled. */
  offered(): ToolsetName[] {
    return this.#available.filter((name) => !this.#enabled.has(name));
  }

  /** enable-toolset's listing, or undefined when every present toolset is enabled. */
  enableTool(): EnableToolsetSpec | undefined {
    return enableToolsetSpec(this.offered());
  }

  /** Runs enable-toolset: `{toolset}` joins the session; its tools are listed from the next request on. */
  enable(raw: unknown): EnableOutcome {
    return enableToolset(this.#enabled, this.offered(), raw, (toolset) =>
      selectTools(this.#all, { ...this.#base, toolsets: [toolset] }).map((tool) => tool.name),
    );
  }
}

/** enable-toolset's listing for these toolsets not enabled; undefined when there are none. */
export function enableToolsetSpec(offered: readonly ToolsetName[]): EnableToolsetSpec | undefined {
  if (!offered.length) return undefined;
  // Its words are sent with every request while a toolset is off: "Adds a toolset" (not "…'s tools
  // to this session") paid for the abilities toolset's entry, keeping each shape's list as it was.
  return {
    name: ENABLE_TOOLSET,
    description: `Adds a toolset. Not enabled: ${offered.map((n) => `${n} (${TOOLSETS[n]})`).join('; ')}.`,
    inputSchema: {
      type: 'object',
      properties: { toolset: { type: 'string', enum: [...offered] } },
      required: ['toolset'],
      additionalProperties: false,
    },
  };
}

/**
 * One enable-toolset call on a session's `enabled` set (changed in place): the named toolset
 * joins when `offered`; `toolsOf` names its tools for the answer.
 */
export function enableToolset(
  enabled: Set<ToolsetName>,
  offered: readonly ToolsetName[],
  raw: unknown,
  toolsOf: (toolset: ToolsetName) => string[],
): EnableOutcome {
  const name = (raw as { toolset?: unknown } | null)?.toolset;
  const hint = offered.length ? `Not enabled: ${offered.join(', ')}.` : 'Every toolset of this session is enabled.';
  if (typeof name !== 'string' || !(name in TOOLSETS)) {
    const what = typeof name === 'string' ? `; there is no toolset "${name.slice(0, 60)}"` : '';
    return {
      ok: false,
      error: { code: 'invalid_params', message: `enable-toolset takes {"toolset": name}${what}.`, hint },
    };
  }
  const toolset = name as ToolsetName;
  // Enabled and with tools here: nothing to add. The default set names network and fleet for
  // every session, so "enabled" alone does not say the session has them.
  const here = enabled.has(toolset) && toolsOf(toolset).length > 0;
  if (!here && !offered.includes(toolset)) {
    const why =
      toolset === 'network'
        ? ' (not a multisite network, or not a super admin)'
        : toolset === 'fleet'
          ? ' (one site)'
          : toolset === 'abilities'
            ? ` (${ABILITIES_ABSENT})`
            : '';
    return {
      ok: false,
      error: {
        code: 'toolset_unavailable',
        message: `The toolset ${toolset} has no tools in this session${why}.`,
        hint,
      },
    };
  }
  enabled.add(toolset);
  // The enabled toolsets that have tools here (the default set names network and fleet for every session).
  const now = TOOLSET_NAMES.filter((n) => enabled.has(n) && toolsOf(n).length > 0);
  return { ok: true, result: { enabled: toolset, tools: toolsOf(toolset), toolsets: now } };
}
