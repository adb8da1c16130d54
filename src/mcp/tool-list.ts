import { z } from 'zod';
import { describeTool, listedInputSchema, modelParameters } from '../adapters/json-schema.js';
import { type AnyToolDefinition, type EnableToolsetSpec, fleetTools } from '../call/index.js';
import { previewOutput } from '../tools/output-schemas.js';

export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

export interface ListShape {
  /** Strict-ready input schemas (`mcp --strict`). */
  strict: boolean;
  /** A session on several sites: every tool takes `site`, no outputSchema (answers are per site). */
  fleet: boolean;
}

/**
 * tools/list's tools, built once per selection (#61) and served from memory: a pure function of
 * the tools selected (each definition by identity: a network's list-users is another object than
 * a single site's), the list's shape and enable-toolset's listing. Building it turns each tool's
 * zod schemas into JSON schema, 4–12 ms of CPU a list, which every tools/list request paid before;
 * each tool's entry is kept too, so a new selection (enable-toolset) builds only the tools it adds.
 */
export function mcpToolList(tools: readonly AnyToolDefinition[], shape: ListShape, enable: McpTool | undefined): McpTool[] {
  const key = `${shape.strict ? 's' : ''}${shape.fleet ? 'f' : ''}|${tools.map(idOf).join(',')}|${enable ? JSON.stringify(enable) : ''}`;
  let list = lists.get(key);
  if (!list) {
    list = [...tools.map((tool) => entryOf(tool, shape)), ...(enable ? [enable] : [])];
    // A handful of selections at most in a server (toolsets × network, fleet, strict); kept bounded anyway.
    if (lists.size >= MAX_LISTS) lists.delete(lists.keys().next().value as string);
    lists.set(key, list);
  }
  return list;
}

const MAX_LISTS = 64;
const lists = new Map<string, McpTool[]>();
const ids = new WeakMap<AnyToolDefinition, number>();
let lastId = 0;
function idOf(tool: AnyToolDefinition): number {
  let id = ids.get(tool);
  if (id === undefined) {
    lastId += 1;
    id = lastId;
    ids.set(tool, id);
  }
  return id;
}

const entries = new WeakMap<AnyToolDefinition, Map<string, McpTool>>();

/** One tool as listed in this shape, built the first time it is asked for. */
function entryOf(tool: AnyToolDefinition, shape: ListShape): McpTool {
  const variant = `${shape.strict ? 's' : ''}${shape.fleet ? 'f' : ''}`;
  let byShape = entries.get(tool);
  if (!byShape) {
    byShape = new Map();
    entries.set(tool, byShape);
  }
  let entry = byShape.get(variant);
  if (!entry) {
    entry = buildEntry(shape.fleet ? (fleetTools([tool])[0] as AnyToolDefinition) : tool, shape);
    byShape.set(variant, entry);
  }
  return entry;
}

function buildEntry(tool: AnyToolDefinition, shape: ListShape): McpTool {
  const described = describeTool(tool);
  return {
    name: described.name,
    description: described.description,
    // As the model sees it: a login, an email or a slug where an id goes (strings; #52.1).
    inputSchema: (shape.strict ? modelParameters(tool, { strict: true }) : listedInputSchema(tool)) as McpTool['inputSchema'],
    ...(tool.outputSchema && !shape.fleet && { outputSchema: outputSchemaOf(tool) }),
    annotations: {
      readOnlyHint: tool.annotations.readOnly,
      destructiveHint: tool.annotations.destructive,
      idempotentHint: tool.annotations.idempotent,
      openWorldHint: false,
    },
  };
}

/** enable-toolset in tools/list while some toolset is not enabled. */
export function enableToolsetListing(spec: EnableToolsetSpec | undefined): McpTool | undefined {
  if (!spec) return undefined;
  const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  return { name: spec.name, description: spec.description, inputSchema: spec.inputSchema, outputSchema: ENABLE_TOOLSET_OUTPUT, annotations };
}

/** enable-toolset's answer (like every listed tool, it has an outputSchema and returns structuredContent). */
const ENABLE_TOOLSET_OUTPUT = {
  type: 'object' as const,
  properties: {
    enabled: { type: 'string' },
    tools: { type: 'array', items: { type: 'string' } },
    toolsets: { type: 'array', items: { type: 'string' } },
    note: { type: 'string' },
  },
  required: ['enabled', 'tools', 'toolsets'],
};

const jsonOf = (schema: z.ZodObject) => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest as { type: 'object'; [key: string]: unknown };
};
let previewJson: { type: 'object'; [key: string]: unknown } | undefined;

/**
 * The tool's outputSchema as JSON schema (an object schema, as MCP requires); a write tool's
 * also admits its dry run's answer (`{dry_run: true, …}`).
 */
function outputSchemaOf(tool: AnyToolDefinition): { type: 'object'; [key: string]: unknown } {
  const own = jsonOf(tool.outputSchema as z.ZodObject);
  if (tool.annotations.readOnly) return own;
  previewJson ??= jsonOf(previewOutput);
  return { type: 'object', anyOf: [own, previewJson] };
}
