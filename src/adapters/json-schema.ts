import { z } from 'zod';
import { type AnyToolDefinition, namedSchema } from '../call/index.js';
import { toStrictSchema } from './strict-schema.js';

export interface ToolDescription {
  name: string;
  toolkit: string;
  /** Other toolkits that include it too. */
  alsoIn?: readonly string[];
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: AnyToolDefinition['annotations'];
}

/**
 * What the model is sent as a tool's parameters: the JSON schema without `$schema` and
 * `additionalProperties` (about 20 tokens a tool, 400 for all; sent with every request).
 * Unknown keys are still rejected: every call is validated against the zod schema.
 */
export function modelParameters(tool: AnyToolDefinition, options: SchemaOptions = {}): Record<string, unknown> {
  // A login, an email or a slug where an id goes (#52.1): those params are strings for the model.
  const inputSchema = namedSchema(tool, describeTool(tool).inputSchema);
  if (options.strict) return toStrictSchema(inputSchema);
  const { additionalProperties: _strict, ...parameters } = inputSchema;
  return parameters;
}

export interface SchemaOptions {
  /**
   * Schemas valid under OpenAI's strict function calling (and Anthropic's strict tool use):
   * every param listed in `required`, optional ones nullable, `additionalProperties: false`.
   * Needed when the provider turns strict on (ChatOpenAI does for every tool once a request
   * carries a json_schema response_format, e.g. createAgent's `responseFormat`). Costs tokens.
   */
  strict?: boolean;
}

/**
 * A tool's input schema as MCP lists it (and `cms-admin tools --json` prints it): where an id goes
 * a name may too, and a number stays a number (`"type": ["string", "integer"]`, #60.8), so MCP
 * clients that validate arguments against the list take both. A pure function of the tool.
 */
export function listedInputSchema(tool: AnyToolDefinition): Record<string, unknown> {
  return namedSchema(tool, describeTool(tool).inputSchema, ['string', 'integer']);
}

/** A tool as plain JSON: what `cms-admin tools --json` prints and what MCP lists. */
export function describeTool(tool: AnyToolDefinition): ToolDescription {
  // A site ability's tool: its own input schema, as the site declares it (tools/abilities/).
  const { $schema: _ignored, ...inputSchema } = tool.inputJsonSchema ?? (z.toJSONSchema(tool.schema) as Record<string, unknown>);
  return {
    name: tool.name,
    toolkit: tool.toolkit,
    ...(tool.alsoIn ? { alsoIn: tool.alsoIn } : {}),
    description: tool.description,
    inputSchema,
    annotations: tool.annotations,
  };
}
