import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { ABILITY_NAME, getAbility, runMethod } from './abilities-api.js';
import { modelSchema } from './ability-schema.js';
import { NOT_UNDOABLE, oneLine, safetyOf } from './ability-words.js';

/** One ability as the model needs it to run it: its input schema in the model's terms, and whether a person is asked. */
export const describeAbility = defineTool({
  name: 'describe-ability',
  toolkit: 'abilities',
  description: 'One WordPress ability: its input schema (for run-ability), annotations, and whether running it asks a person.',
  schema: () => z.strictObject({ name: abilityName() }),
  outputSchema: z.looseObject({ name: z.string() }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  abilitiesApi: true,
  async execute(context, { name }) {
    const ability = await getAbility(context.client, name);
    const safety = safetyOf(ability.annotations);
    return {
      name: ability.name,
      label: oneLine(ability.label, 120),
      description: oneLine(ability.description, 1000),
      category: ability.category,
      annotations: ability.annotations,
      asks: !safety.readOnly,
      method: runMethod(ability.annotations),
      input_schema: ability.input_schema ? modelSchema(ability.input_schema) : null,
      ...(ability.output_schema && { output_schema: modelSchema(ability.output_schema) }),
      ...(!safety.readOnly && { undo: `cannot be undone: ${NOT_UNDOABLE}` }),
    };
  },
});

/** An ability's name param: `namespace/name` (find-abilities lists them). */
export const abilityName = () =>
  z
    .string()
    .trim()
    .regex(ABILITY_NAME, 'an ability name is namespace/name in lowercase letters, digits and dashes (find-abilities lists them)')
    // Checked, not sent: the model reads names from find-abilities (the pattern costs tokens on every request).
    .meta({ pattern: undefined });
