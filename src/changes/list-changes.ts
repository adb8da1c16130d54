import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import { listOutput } from '../tools/output-schemas.js';
import { type ListSource, listPage, pagingParams } from '../tools/answers/page.js';
import { type ChangeEntry, madeBy } from '../undo/journal.js';
import { isDamaged } from '../undo/journal-file.js';
import { latestOf, nameDamage, siteOf, UndoneIndex } from '../undo/journal-read.js';
import { journalOf } from './journal-of.js';

type Item = ReturnType<typeof listItem>;

/** Damaged lines named in one answer (a file of garbage is not listed line by line). */
const NAMED = 5;

/**
 * The connected account's changes in the journal, newest first: what undo-change can take back
 * (docs/undo.md). Read from the journal's end, only as far as the page goes (issue #34), so
 * `total` is exact once the listing reaches the journal's start and a lower bound before
 * (`total_exact: false`). Damaged lines met on the way are named (`damaged`).
 */
export const listChanges = defineTool({
  name: 'list-changes',
  toolkit: 'taxonomy',
  alsoIn: ['users'],
  needsJournal: true,
  description: 'List changes, newest first.',
  schema: () => z.strictObject({ ...pagingParams }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { limit, cursor }) {
    const journal = journalOf(context);
    // Only the connected account's changes (journal.ts: madeBy).
    const account = await context.client.connect();
    const damaged: string[] = [];
    let exact = true;
    const source: ListSource<Item> = {
      // Newest first: the key rises as the change ids (time) fall.
      key: (item) => -Number.parseInt(item.change_id.slice(1, -4), 36),
      async fetch({ offset, count }) {
        const items: Item[] = [];
        const undone = new UndoneIndex();
        let seen = 0;
        for await (const item of latestOf(journal, siteOf(context))) {
          if (isDamaged(item)) {
            if (damaged.length < NAMED) damaged.push(await nameDamage(journal, item));
            continue;
          }
          undone.add(item);
          if (!madeBy(item, account)) continue;
          // One past the page: there is more.
          if (seen++ === offset + count) {
            exact = false;
            break;
          }
          if (seen > offset) items.push(listItem(item, undone.isUndone(item)));
        }
        return { items, total: seen };
      },
    };
    const page = await listPage(context, source, { tool: 'list-changes', filters: {}, limit, cursor, defaultLimit: 20, narrowWith: 'limit' });
    if (!exact) {
      page.total_exact = false;
      if (page.more) page.more = 'More, older changes: pass cursor=next_cursor.';
    }
    if (damaged.length)
      page.damaged = damaged.map(
        (where) => `${where}: it is skipped and the changes around it are listed; undo without a change id refuses until it is set aside (cms-admin changes --repair)`,
      );
    return page;
  },
});

function listItem(entry: ChangeEntry, undone: boolean) {
  return {
    change_id: entry.change_id,
    tool: entry.tool,
    at: entry.at,
    summary: entry.summary,
    reversible: entry.reversible,
    undone,
    // An intent never completed (a process killed mid-write) or an outcome not read back (#47).
    ...(entry.status === 'pending' || entry.status === 'unknown' ? { incomplete: 'may have been applied: undo reads the site and puts back what changed' } : {}),
    ...(entry.undoes ? { undoes: entry.undoes } : {}),
    // Written before entries had user ids: matched by login (journal.ts: madeBy), and said.
    ...(entry.user_id === undefined ? { matched_by_login: true } : {}),
  };
}
