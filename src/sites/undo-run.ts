import { describePlan } from '../changes/undo-review.js';
import type { ToolContext } from '../tools/define-tool.js';
import { type ChangeEntry, type ChangeJournal, entriesOf, isUndone } from '../undo/journal.js';
import { planUndo } from '../undo/undo.js';
import { siteOf } from '../undo/journal-read.js';

/**
 * One site's share of `undo --run ID`: the changes of that run this account made on this site
 * and not undone yet, newest first, and the lines the question says for them (what the forward
 * tools would say, read from the site now, as `undo` asks for one change).
 */
export async function planRunUndo(
  context: ToolContext,
  journal: ChangeJournal,
  runId: string,
  opts: { force?: boolean } = {},
): Promise<{ chosen: ChangeEntry[]; lines: string[] }> {
  // The run's entries of this site only (an index read; a store shared by sites keeps each its own).
  const site = siteOf(context);
  const all = (journal.byRun ? await journal.byRun(runId) : (await journal.entries()).filter((e) => e.run_id === runId)).filter(
    (e) => e.site === undefined || e.site === site,
  );
  // No entry of the run on this site: nothing to ask WordPress (a run id that does not exist costs no request).
  if (!all.length) return { chosen: [], lines: [] };
  const account = await context.client.connect();
  const chosen = entriesOf(all, account)
    .filter((e) => !e.undoes && !isUndone(all, e))
    .reverse();
  const lines: string[] = [];
  for (const entry of chosen) {
    if (!entry.reversible) {
      lines.push(`${entry.change_id}: restore nothing; it cannot be undone (${JSON.stringify(String(entry.why_not ?? 'not reversible').slice(0, 200))})`);
      continue;
    }
    const plan = await planUndo(context, journal, { change_id: entry.change_id, force: opts.force });
    lines.push(await describePlan(context, plan));
  }
  return { chosen, lines };
}
