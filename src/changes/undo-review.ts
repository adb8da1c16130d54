import type { UndoPlan } from '../undo/undo.js';
import type { ToolContext } from '../tools/define-tool.js';
import { roleLines } from './undo-review-roles.js';
import { taxonomyLines } from './undo-review-terms.js';
import { networkLines, userLines } from './undo-review-users.js';
import { type Line, QUESTION_LIMIT, renderLine } from './undo-lines.js';

/**
 * An undo asks what the forward tools would ask for the same change (issue #33): the engine's
 * dry run (what will be written, conflicts left out — never the entry's summary, which is
 * only text in a file) is turned into forward calls, and each call's own review (its preview
 * where it has none) says it, with its refusals: an undo of a demotion reads as set-user-role
 * ("give ghopper the role administrator (manage_options, …) (was: subscriber)"), of a disable as enable-user,
 * of create-user as delete-user (posts, "cannot be undone"), of delete-term as create-term,
 * of revoke-super-admin as grant-super-admin, of remove-user-from-site as add-user-to-site.
 * Many objects of one kind are one line with their count and first names, and the question
 * stays within QUESTION_LIMIT characters whatever the change's size (#60.5, undo-lines.ts).
 */
export async function describePlan(context: ToolContext, plan: UndoPlan): Promise<string> {
  const { now, after } = plan;
  const lines: Line[] = [
    // Roles first: a deleted role is back before its accounts get it again (restore-roles.ts).
    ...(await roleLines(context, now, after)),
    ...(await taxonomyLines(context, now, after)),
    ...(await userLines(context, now, after)),
    ...(await networkLines(context, now, after)),
    // Posts taken out of the Trash (restore-trash.ts) have no forward tool: counted, not listed one by one.
    ...trashLine(plan.report.restored),
  ];
  const left = byReason(plan.report.conflicts);
  const already = !lines.length && plan.report.skipped.length ? [{ head: 'already as they were', names: plan.report.skipped }] : [];
  const render = (shown: number) => {
    const parts = [`undo ${undoLabel(plan.entry)}: ${lines.length ? lines.map((l) => renderLine(l, shown)).join('; ') : 'nothing to write'}`];
    if (left.length) parts.push(`left as they are: ${left.map((l) => renderLine(l, shown)).join('; ')}`);
    parts.push(...already.map((l) => renderLine(l, shown)));
    return parts.join('; ');
  };
  // As many names as fit: 8 of each kind, fewer for a long question, none at the last.
  for (const shown of [8, 4, 2, 1]) {
    const text = render(shown);
    if (text.length <= QUESTION_LIMIT) return text;
  }
  return render(0);
}

/** Conflicts with the same reason together: "left as they are: user 30 (a), user 31 (b): has posts now". */
function byReason(conflicts: readonly { item: string; reason: string }[]): Line[] {
  const groups = new Map<string, string[]>();
  for (const c of conflicts) groups.set(c.reason, [...(groups.get(c.reason) ?? []), c.item]);
  const lines: Line[] = [...groups].map(([reason, items]) =>
    items.length === 1 ? `${items[0]}: ${reason}` : { head: `${items.length} items (${reason})`, names: items },
  );
  const hidden = [...groups.values()].slice(4).reduce((n, items) => n + items.length, 0);
  return hidden ? [...lines.slice(0, 4), `${hidden} more for other reasons`] : lines;
}

/** "12 posts back out of the Trash (publish 10, draft 2)" from the engine's "post 31 'Title' (out of the Trash, publish)". */
function trashLine(restored: readonly string[]): string[] {
  const byStatus = new Map<string, number>();
  for (const item of restored) {
    const status = /\(out of the Trash, ([^)]+)\)$/.exec(item)?.[1];
    if (status) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }
  const n = [...byStatus.values()].reduce((a, b) => a + b, 0);
  if (!n) return [];
  const statuses = [...byStatus].map(([status, count]) => `${status} ${count}`).join(', ');
  return [`${n} post${n === 1 ? '' : 's'} back out of the Trash (${statuses})`];
}

/**
 * "cX (set-user-role)": the entry's id and tool, which come from the journal file, so only the
 * characters an id and a tool name have (an edited entry cannot put words into the question).
 */
export function undoLabel(entry: { change_id: string; tool: string }): string {
  const clean = (text: unknown) => String(text).replace(/[^a-z0-9-]/gi, '').slice(0, 40) || '?';
  return `${clean(entry.change_id)} (${clean(entry.tool)})`;
}
