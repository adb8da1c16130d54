import { z } from 'zod';
import { listPage, matches, memorySource, pagingParams } from '../answers/page.js';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { text } from '../schema.js';
import { listAbilities } from './abilities-api.js';
import { oneLine, safetyOf } from './ability-words.js';

/**
 * The site's abilities (WordPress 6.9+, docs/abilities.md), by name: a few at a time however many
 * the site registers, each with what the site says of it and whether running it asks a person.
 * Filtered here (WordPress 6.9 takes only `category`; 7.0 adds `namespace`).
 */
export const findAbilities = defineTool({
  name: 'find-abilities',
  toolkit: 'abilities',
  description: 'The site’s WordPress abilities: name, label, annotations, asks (runs only with a person’s approval).',
  schema: () =>
    z.strictObject({
      category: text(100).optional().describe('Category slug'),
      namespace: text(100).optional().describe('e.g. woocommerce'),
      search: text().optional().describe('Words in name, label or description'),
      ...pagingParams,
    }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  abilitiesApi: true,
  async execute(context, { category, namespace, search, limit, cursor }) {
    const prefix = namespace === undefined ? undefined : `${namespace.replace(/\/+$/, '')}/`;
    const words = search?.trim().split(/\s+/).filter(Boolean) ?? [];
    const found = (await listAbilities(context.client))
      .filter((a) => (category === undefined || a.category === category) && (prefix === undefined || a.name.startsWith(prefix)))
      .filter((a) => words.every((word) => matches(word, a.name, a.label, a.description)))
      .map((a) => ({
        name: a.name,
        label: oneLine(a.label, 120),
        description: oneLine(a.description, 200),
        category: a.category,
        annotations: a.annotations,
        asks: !safetyOf(a.annotations).readOnly,
      }));
    return listPage(context, memorySource(found, (a) => a.name), {
      tool: 'find-abilities',
      filters: { category, namespace, search },
      limit,
      cursor,
      defaultLimit: 50,
      narrowWith: 'category, namespace, search',
    });
  },
});
