import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import { text } from '../tools/schema.js';
import { undoOutput } from '../tools/output-schemas.js';
import { planUndo, undoChange, type UndoReport } from '../undo/undo.js';
import { describePlan } from './undo-review.js';
import { describeUndo } from '../undo/undo-words.js';
import { journalOf } from './journal-of.js';

/** Its name, also what its undos are journalled under (the engine names no tool). */
export const UNDO_CHANGE = 'undo-change';

type Params = { change_id?: string; force?: boolean };

/** Items of a long list shown, the rest counted (a merge of thousands of posts). */
const SHOWN = 30;

/**
 * Takes back one journalled change (docs/undo.md): approval always. The review picks the change
 * once ("the last" resolved to its id, which is what then runs: CallReview.params) and asks
 * what the forward tools would ask for the writes the undo will make (undo-review.ts). Journals
 * itself (undoes).
 */
export const undoChangeTool = defineTool({
  name: UNDO_CHANGE,
  toolkit: 'taxonomy',
  alsoIn: ['users'],
  needsJournal: true,
  description: 'Undo a change, default the last.',
  schema: () => z.strictObject({
    change_id: text(40).optional().describe('From list-changes'),
    force: z.boolean().optional().describe('Override conflicts'),
  }),
  outputSchema: undoOutput,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  undo: { self: true, summary: () => 'undo' },
  async review(context, params: Params) {
    const plan = await planUndo(context, journalOf(context), params);
    const { dry_run: _, ...rest } = params as Params & { dry_run?: boolean };
    return {
      approval: 'required',
      summary: await describePlan(context, plan),
      params: { ...rest, change_id: plan.entry.change_id },
    };
  },
  async preview(context, params: Params) {
    const plan = await planUndo(context, journalOf(context), params);
    return { would: await describePlan(context, plan), ...shorten(plan.report) };
  },
  execute: (context, params: Params) => undoChange(context, journalOf(context), { ...params, recordAs: UNDO_CHANGE }),
  answer: (report: UndoReport) => shorten(report),
});

function shorten(report: UndoReport) {
  const cut = <T>(items: T[]) => items.slice(0, SHOWN);
  return {
    // Plain words (#52.11): "undo cX: deleted category 127 'Press' (it was created by change cX)".
    summary: describeUndo(report),
    ...report,
    restored: cut(report.restored),
    conflicts: cut(report.conflicts),
    skipped: cut(report.skipped),
    ...(report.restored.length > SHOWN ? { restored_total: report.restored.length } : {}),
    ...(report.conflicts.length > SHOWN ? { conflicts_total: report.conflicts.length } : {}),
    ...(report.skipped.length > SHOWN ? { skipped_total: report.skipped.length } : {}),
  };
}
