import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { ToolError } from '../tool-error.js';
import { getAbility, type JsonSchema } from './abilities-api.js';
import { clientSchema, coerceInput, inputProblems } from './ability-input.js';
import { abilityRunOutput, abilityTool } from './ability-tool.js';
import { abilityName } from './describe-ability.js';

/**
 * Runs one of the site's abilities (docs/abilities.md): a door — the call is resolved on its site
 * to that ability's own tool (ability-tool.ts), read from the site now, and its input checked
 * against the ability's schema before anything runs. What the site marks read-only runs unasked;
 * any other asks a person, on every surface, as every write does.
 */
export const runAbility = defineTool({
  name: 'run-ability',
  toolkit: 'abilities',
  description: 'Runs a WordPress ability with its input (describe-ability gives the schema). Read-only ones run at once; others need a person’s approval and cannot be undone.',
  schema: () =>
    z.strictObject({
      name: abilityName(),
      // JSON text for the model: the one form every provider takes, strict ones too (any JSON value
      // is not expressible there); a JSON value given as it is is taken as well.
      input: z.unknown().meta({ type: 'string' }).optional().describe('Its input as JSON (describe-ability gives the schema)'),
    }),
  outputSchema: abilityRunOutput,
  // What the site says of each ability decides per call (the tool behind the door); as a tool, the most careful.
  annotations: { readOnly: false, destructive: true, idempotent: false },
  abilitiesApi: true,
  async resolveTool(context, params) {
    const ability = await getAbility(context.client, params.name);
    const tool = await abilityTool(ability);
    const input = fromJsonText(params.input, ability.input_schema);
    return { tool, params: { input: checkedInput(ability.name, ability.input_schema, input), ...dryRunOf(params) } };
  },
  execute: () => {
    // resolveTool stands in for it: runTool runs the ability's own tool.
    throw new Error('run-ability runs the tool its door resolves to (call/resolve.ts), never itself.');
  },
});

/**
 * The input checked against the ability's own schema, in the words a model acts on: refused here,
 * before any request runs the ability. Also the check of the abilities made tools of their own.
 */
export function checkedInput(name: string, schema: JsonSchema | undefined, input: unknown): unknown {
  const own = schema && clientSchema(schema);
  const coerced = coerceInput(input, own);
  const problems = inputProblems(own, coerced);
  if (!problems.length) return coerced;
  throw new ToolError('invalid_params', `Invalid input for the ability ${name}: ${problems.map((p) => `${p.path.join('.')}: ${p.message}`).join('; ')}.`, {
    hint: `describe-ability {"name": "${name}"} shows the input it takes. Nothing was run.`,
  });
}

/**
 * run-ability's `input` as JSON text (what its schema tells the model): parsed, unless it is text
 * the ability takes as it is (a string input that does not read as an object or a list).
 */
export function fromJsonText(input: unknown, schema: JsonSchema | undefined): unknown {
  if (typeof input !== 'string') return input;
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    return input;
  }
  const takesText = schema?.type === 'string' || (Array.isArray(schema?.type) && schema.type.includes('string'));
  return parsed !== null && typeof parsed === 'object' ? parsed : takesText ? input : parsed;
}

/** The door's `dry_run` (defineTool adds it to every write tool), passed on to the tool behind it. */
export const dryRunOf = (params: object): { dry_run?: true } => ((params as { dry_run?: unknown }).dry_run === true ? { dry_run: true } : {});
