
/**
 * An undo in plain words (#52.11), for people and the model alike: what it deleted (an item the
 * change had created) — "deleted category 127 'Press' (it was created by change cX)" — what it
 * recreated, what it put back; never "restored … (deleted)".
 */
/** What the words read of an undo's report (undo-entry.ts's UndoReport). */
interface Report {
  change_id: string;
  dry_run?: boolean;
  restored: string[];
  conflicts: Array<{ item: string; reason: string; failed?: true }>;
  skipped: string[];
  notes?: string[];
  incomplete?: true;
}

const DELETED = ' (deleted)';
const RECREATED = ' (recreated with a new id)';

const list = (items: readonly string[]) => items.slice(0, 8).join(', ') + (items.length > 8 ? ` and ${items.length - 8} more` : '');

/** "deleted …; recreated …; restored …" from an undo's restored items (nothing: "restored nothing"). */
export function undoneWords(restored: readonly string[], changeId: string, dryRun = false): string {
  const deleted = restored.filter((i) => i.endsWith(DELETED)).map((i) => i.slice(0, -DELETED.length));
  // A dry run's "(recreated with a new id)", a run's "(recreated as 126)" (restore-terms.ts).
  const recreatedAs = (i: string) => / \(recreated as (\d+)\)$/.exec(i);
  const recreated = restored.flatMap((i) => {
    if (i.endsWith(RECREATED)) return [i.slice(0, -RECREATED.length)];
    const as = recreatedAs(i);
    return as ? [`${i.slice(0, as.index)} (as ${as[1]})`] : [];
  });
  const put = restored.filter((i) => !i.endsWith(DELETED) && !i.endsWith(RECREATED) && !recreatedAs(i));
  const does = [
    ...(deleted.length ? [`${dryRun ? 'delete' : 'deleted'} ${list(deleted)} (${deleted.length === 1 ? 'it was' : 'they were'} created by change ${changeId})`] : []),
    ...(recreated.length ? [`${dryRun ? 'recreate' : 'recreated'} ${list(recreated)}${dryRun ? ' (with a new id)' : ''}`] : []),
    ...(put.length ? [`${dryRun ? 'restore' : 'restored'} ${list(put)}`] : []),
  ];
  return does.length ? does.join('; ') : `${dryRun ? 'restore' : 'restored'} nothing`;
}

/** One line: what an undo did, and what it left (why, and that a rerun finishes a cut-short one). */
export function describeUndo(report: Report): string {
  const parts = [`undo ${report.change_id}: ${undoneWords(report.restored, report.change_id, report.dry_run)}`];
  const said = (items: typeof report.conflicts) => list(items.map((c) => `${c.item}: ${c.reason}`));
  // A write that failed is a fault (the site answered 500, a request dropped), not someone's edit.
  const failed = report.conflicts.filter((c) => c.failed);
  const changed = report.conflicts.filter((c) => !c.failed);
  if (changed.length) parts.push(`left ${changed.length} changed since (${said(changed)})`);
  if (failed.length) parts.push(`${failed.length} write(s) failed (${said(failed)})`);
  if (!report.dry_run && (failed.length || report.incomplete))
    parts.push(
      failed.length
        ? `incomplete: undoing ${report.change_id} again finishes it`
        : `incomplete: undoing ${report.change_id} again with force restores what changed since`,
    );
  if (!report.restored.length && report.skipped.length) parts.push(`skipped: ${list(report.skipped)}`);
  // What no undo gives back (a deleted account), and what came back besides (posts out of the Trash).
  if (report.notes?.length) parts.push(...report.notes);
  return parts.join('; ');
}
