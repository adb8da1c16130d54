import type { ToolContext } from '../tools/define-tool.js';
import { ToolError } from '../tools/tool-error.js';
import type { ChangeJournal } from '../undo/journal.js';

/** The context's change journal, or the error saying there is none (so nothing can be undone). */
export function journalOf(context: ToolContext): ChangeJournal {
  if (context.journal) return context.journal;
  throw new ToolError('journal_off', 'No change journal is kept here, so no change is recorded or can be undone.', {
    hint: 'The CLI keeps one by default (--journal FILE / CMS_JOURNAL, not off); library users pass `journal` to the toolkit.',
  });
}
