import { z } from 'zod';
import { type AnyToolDefinition, defineTool, type ToolContext } from '../define-tool.js';
import { ToolError } from '../tool-error.js';
import { type Ability, getAbility, hasAbilitiesApi, listAbilities } from './abilities-api.js';
import { clientSchema, coerceInput, inputProblems, loadValidator, zodIssue } from './ability-input.js';
import { abilityParams } from './ability-schema.js';
import { abilityRunOutput, abilityTool, abilityToolName } from './ability-tool.js';
import { oneLine, safetyOf } from './ability-words.js';
import { checkedInput, dryRunOf } from './run-ability.js';

/**
 * The `abilities` option (toolkits, `chat`, `mcp`; docs/abilities.md): chosen abilities as tools of
 * their own, each with its own params (its input schema, in the model's terms) and name
 * (`woocommerce_products-query`). Each is a door like run-ability: a call is resolved on its site to
 * what that site defines now, and asks, journals and runs as every write does. `patterns`: names, or
 * `namespace/*`, `*`. Read from the first of `sites` that has each ability; a site without it answers
 * that on its own line. A name (not a pattern) no site has is an error, as a misspelt `--allow` is.
 */
export async function abilityTools(sites: readonly ToolContext[], patterns: readonly string[]): Promise<AnyToolDefinition[]> {
  await loadValidator();
  const wanted = patterns.map((p) => p.trim()).filter(Boolean);
  if (!wanted.length) return [];
  const found = new Map<string, ToolContext>();
  let withApi = 0;
  for (const context of sites) {
    if (!(await hasAbilitiesApi(context.client))) continue;
    withApi++;
    for (const ability of await listAbilities(context.client)) {
      if (!found.has(ability.name) && wanted.some((p) => matchesPattern(p, ability.name))) found.set(ability.name, context);
    }
  }
  if (!withApi) {
    throw new ToolError('abilities_unavailable', `The abilities option names ${wanted.join(', ')}, but ${sites.length > 1 ? 'no site of the session has' : 'the site has'} the Abilities API (WordPress 6.9 added it).`, {
      hint: 'Leave the abilities option out on WordPress before 6.9.',
    });
  }
  const missing = wanted.filter((p) => !p.includes('*') && !found.has(p));
  if (missing.length) {
    throw new ToolError('ability_not_found', `No site of this session has the ability ${missing.join(', ')} (or shows it in REST).`, {
      hint: 'find-abilities lists the abilities a site offers; names are namespace/name, patterns namespace/*.',
    });
  }
  const tools: AnyToolDefinition[] = [];
  for (const [name, context] of [...found].sort(([a], [b]) => (a < b ? -1 : 1))) tools.push(abilityDoor(await getAbility(context.client, name)));
  return tools;
}

/** `woocommerce/*`, `*`, or an exact name. */
export function matchesPattern(pattern: string, name: string): boolean {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`).test(name);
}

/** One ability as a tool of its own, whose every call resolves to the ability on the call's site. */
export function abilityDoor(ability: Ability): AnyToolDefinition {
  const schema = ability.input_schema && clientSchema(ability.input_schema);
  const { schema: params, wrapped } = abilityParams(ability);
  const keys = Object.keys(params.properties as object);
  // Ours, not the ability's: dry_run (defineTool), and `site` unless the ability has one, which a
  // session of several sites adds to every tool (call/fleet.ts fleetTools; its refinements see it).
  const ours = new Set(['dry_run', ...(keys.includes('site') ? [] : ['site'])]);
  const inputOf = (given: Record<string, unknown>): unknown => {
    const own = Object.fromEntries(Object.entries(given).filter(([key]) => !ours.has(key)));
    return schema === undefined ? undefined : wrapped ? own.input : own;
  };
  const annotations = safetyOf(ability.annotations);
  const shape = Object.fromEntries(keys.map((key) => [key, z.unknown().optional()]));
  const object = params.additionalProperties === false ? z.strictObject(shape) : z.looseObject(shape);
  const label = oneLine(ability.label, 80);
  // The model's params: the ability's own, and a write's dry_run (defineTool adds it to the zod schema).
  const properties = { ...(params.properties as object), ...(!annotations.readOnly && { dry_run: { type: 'boolean' } }) };
  return defineTool({
    name: abilityToolName(ability.name),
    toolkit: 'abilities',
    description: `${oneLine(`${label}: ${ability.description}`, 600)} (WordPress ability ${ability.name}${annotations.readOnly ? '' : '; asks a person, cannot be undone'})`,
    // Checked against the ability's schema as read when the tool was made: a call it refuses makes no request.
    schema: () =>
      object.superRefine((given, issues) => {
        for (const problem of inputProblems(schema, coerceInput(inputOf(given as Record<string, unknown>), schema))) {
          issues.addIssue(zodIssue(problem, wrapped ? problem.path : problem.path.slice(1)));
        }
      }),
    inputJsonSchema: { ...params, properties },
    outputSchema: abilityRunOutput,
    annotations,
    async resolveTool(context, given) {
      // What the site defines now, on the call's own site (its annotations decide the question).
      const now = await getAbility(context.client, ability.name);
      const tool = await abilityTool(now);
      if (annotations.readOnly && !tool.annotations.readOnly) {
        throw new ToolError('ability_changed', `The site no longer marks ${ability.name} read-only, and this session listed it as a read-only tool.`, {
          hint: 'Start the session again to list it as it is now (or call run-ability, which asks). Nothing was run.',
        });
      }
      return { tool, params: { input: checkedInput(ability.name, now.input_schema, inputOf(given)), ...dryRunOf(given) } };
    },
    execute: () => {
      throw new Error(`${ability.name}'s tool runs the tool its door resolves to (call/resolve.ts), never itself.`);
    },
  }) as unknown as AnyToolDefinition;
}
