import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { listPage, memorySource, pagingParams } from '../answers/page.js';
import { entriesOf, isUndone } from '../../undo/journal.js';
import { journalOf } from './journal-of.js';

/** The connected account's changes in the journal, newest first: what undo-change can take back (docs/undo.md). */
export const listChanges = defineTool({
  name: 'list-changes',
  toolkit: 'taxonomy',
  alsoIn: ['users'],
  description: 'List changes, newest first.',
  schema: z.strictObject({ ...pagingParams }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { limit, cursor }) {
    const entries = await journalOf(context).entries();
    // Only the connected account's changes (journal.ts: entriesOf).
    const { username } = await context.client.connect();
    const items = entriesOf(entries, username).map((entry) => ({
      change_id: entry.change_id,
      tool: entry.tool,
      at: entry.at,
      summary: entry.summary,
      reversible: entry.reversible,
      undone: isUndone(entries, entry),
      ...(entry.undoes ? { undoes: entry.undoes } : {}),
    }));
    // Newest first: the key falls with the position in the journal.
    const position = new Map(items.map((item, index) => [item.change_id, index]));
    const page = await listPage(
      context,
      memorySource(items, (item) => -(position.get(item.change_id) ?? 0)),
      {
        tool: 'list-changes',
        filters: {},
        limit,
        cursor,
        defaultLimit: 20,
        narrowWith: 'limit',
      },
    );
    return page;
  },
});
