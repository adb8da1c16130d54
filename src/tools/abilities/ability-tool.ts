import { z } from 'zod';
import { answerBudget, enforceBudget } from '../answers/budget.js';
import { hasCompanion } from '../companion.js';
import { type AnyToolDefinition, defineTool, type ToolContext } from '../define-tool.js';
import { type Ability, checkAbility, runAbilityRequest, runMethod } from './abilities-api.js';
import { clientSchema, coerceInput, inputProblems, loadValidator, zodIssue } from './ability-input.js';
import { abilityQuestion, inputWords, NOT_UNDOABLE, oneLine, safetyOf } from './ability-words.js';

/** What running an ability answers: its name and the site's result (MCP's structuredContent). */
export const abilityRunOutput = z.looseObject({ ability: z.string() });

/**
 * A tool name for an ability, valid for every provider (`^[a-zA-Z0-9_-]{1,64}$`, no `/`):
 * `woocommerce/products-query` → `woocommerce_products-query`. Ability names have no `_`, so it is
 * never one of ours (kebab-case) nor another ability's; past 64 characters, cut and hashed.
 */
export function abilityToolName(name: string): string {
  const plain = name.replace('/', '_');
  if (plain.length <= 64) return plain;
  let hash = 0x811c9dc5;
  for (const c of name) hash = Math.imul(hash ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return `${plain.slice(0, 55)}-${hash.toString(16).padStart(8, '0')}`;
}

/**
 * The tool an ability is on one site, read from that site (the doors resolve to it: run-ability,
 * and the abilities made tools of their own): its input checked against its own schema, its
 * safety from the site's annotations (ability-words.ts), its question, its dry run, its journal
 * entry (cannot be undone) and its run. Built per call, so what is asked is what the site says now.
 */
export async function abilityTool(ability: Ability): Promise<AnyToolDefinition> {
  await loadValidator();
  const schema = ability.input_schema && clientSchema(ability.input_schema);
  const annotations = safetyOf(ability.annotations);
  const named = `${ability.name} ("${oneLine(ability.label, 80)}")`;
  return defineTool({
    name: abilityToolName(ability.name),
    toolkit: 'abilities',
    description: oneLine(`${ability.label}: ${ability.description}`, 1000),
    schema: () =>
      z
        .strictObject({
          input: z.unknown().optional().transform((value) => coerceInput(value, schema)),
          dry_run: z.boolean().optional(),
        })
        .superRefine(({ input }, issues) => {
          for (const problem of inputProblems(schema, input)) issues.addIssue(zodIssue(problem));
        }),
    outputSchema: abilityRunOutput,
    annotations,
    async review(context, { input }) {
      if (annotations.readOnly) return { approval: 'none', summary: `run ${named} with ${inputWords(input)}` };
      // The site's own checks first when it can make them (the companion plugin): no one is asked
      // about a run its permission callback or its input checks refuse.
      if (await hasCompanion(context.client, 'abilities/dry-run')) await checkAbility(context.client, ability, input);
      return { approval: 'required', summary: abilityQuestion(ability, context, input) };
    },
    preview: (context, { input }) => dryRun(context, ability, input),
    undo: {
      summary: ({ input }) => `ran the site's ability ${named} with ${inputWords(input, 200)}`,
      irreversible: () => NOT_UNDOABLE,
    },
    async execute(context, { input }) {
      const result = await runAbilityRequest(context.client, ability, input);
      // Its own result, fitted to the answer budget (its longest lists cut, saying so).
      const fitted = withinBudget(result, answerBudget(context) - 400);
      return annotations.readOnly ? { ability: ability.name, result: fitted } : { ability: ability.name, result: fitted, undo: `cannot be undone: ${NOT_UNDOABLE}` };
    },
  }) as unknown as AnyToolDefinition;
}

/**
 * A dry run: what would run and with what, after the input was checked against the schema and —
 * with the companion plugin (0.7.0) — by the site itself with the permission callback. WordPress
 * has no dry-run route; without the plugin the permission is said not to be checked.
 */
async function dryRun(context: ToolContext, ability: Ability, input: unknown): Promise<Record<string, unknown>> {
  const plugin = await hasCompanion(context.client, 'abilities/dry-run');
  const checked = plugin ? await checkAbility(context.client, ability, input) : undefined;
  const username = (await context.client.connect()).username;
  return {
    would: `run ${ability.name} ("${oneLine(ability.label, 80)}") with ${inputWords(input)}`,
    ability: ability.name,
    method: runMethod(ability.annotations),
    input: checked ? checked.input : (input ?? null),
    input_valid: true,
    permission: checked
      ? `allowed for ${username} (the site's permission callback, asked without running it)`
      : 'not checked: the cms-admin-companion plugin 0.7.0 checks it without running the ability (WordPress has no dry run)',
    undo: `cannot be undone: ${NOT_UNDOABLE}`,
  };
}

/** An ability's own result within the answer budget: its longest lists cut first, saying so (answers/budget.ts). */
export function withinBudget(result: unknown, budget: number): unknown {
  if (Array.isArray(result)) {
    const fitted = enforceBudget({ items: result }, budget) as { items?: unknown[]; cut?: string };
    return fitted.cut ? fitted : result;
  }
  return enforceBudget(result, budget);
}
