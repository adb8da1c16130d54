import type { Command } from 'commander';
import type { ChangesOptions, UndoCliOptions } from './changes-run.js';
import { JOURNAL_FLAG } from './journal-path.js';

export function registerChangeCommands(program: Command): void {
  program
    .command('changes')
    .description('Show the last changes in the change journal (what `undo` can take back)')
    .option(...JOURNAL_FLAG)
    .option('-n, --limit <n>', 'how many of the latest changes', '20')
    .option('--json', 'print the entries as JSON lines')
    .addHelpText('after', '\nChat, invoke and mcp journal every write by default; see docs/undo.md.')
    .action(async (options: ChangesOptions) => {
      const { showChanges } = await import('./changes-run.js');
      process.exitCode = await showChanges(options);
    });
  program
    .command('undo')
    .description('Undo a change (default: the last one not undone), or the last N with --last')
    .argument('[change_id]', 'a change id from `cms-admin changes` (undo an undo to redo)')
    .option('--last <n>', 'undo the last N changes, newest first (those that cannot be undone are skipped)')
    .option('--dry-run', 'say what would be restored; change nothing')
    .option('--force', 'also restore what changed again since (conflicts)')
    .option('-y, --yes', 'do not ask; needed when there is no terminal')
    .option('--json', 'print the reports as JSON')
    .option(...JOURNAL_FLAG)
    .addHelpText(
      'after',
      `
An undo is a write: it says what it will restore and asks y/N in a terminal; without one it is
refused unless --yes. Objects changed since the change are conflicts, left as they are unless
--force. The undo is journalled too: undo its id to redo. See docs/undo.md.`,
    )
    .action(async (changeId: string | undefined, options: UndoCliOptions) => {
      const { runUndo } = await import('./changes-run.js');
      process.exitCode = await runUndo(changeId, options);
    });
}
