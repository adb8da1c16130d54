import type { Command } from 'commander';
import type { UndoCliOptions } from './changes-run.js';
import type { ChangesOptions } from './changes-show.js';
import { JOURNAL_FLAG } from '../journal-path.js';

/** The change store `mcp --http --store postgres://…` replicas share (issue #49): read and undo what they did. */
const STORE_FLAG = ['--store <url>', 'the change store of mcp --store: postgres://… (env CMS_STORE; --journal wins)'] as const;

export function registerChangeCommands(program: Command): void {
  program
    .command('changes')
    .description('Show the last changes in the change journal (what `undo` can take back)')
    .option(...JOURNAL_FLAG)
    .option(...STORE_FLAG)
    .option('-n, --limit <n>', 'how many of the latest changes', '20')
    .option('--json', 'print the entries as JSON lines')
    .option('--all-sites', 'every site in the journal, with a site column (default: the connected site; a journal named by --journal or CMS_JOURNAL: every site)')
    .option('--export <file>', 'write every entry (of the site, or --all-sites) to FILE as JSON lines (0600)')
    .option('--prune', 'delete old entries from the journal (with --older-than and/or --max-size)')
    .option('--older-than <age>', 'with --prune: entries older than this, e.g. 90d, 12h, 8w')
    .option('--max-size <size>', 'with --prune: then the oldest until the store is at most this, e.g. 50MB')
    .option('--repair', 'kept for scripts: the SQLite journal has no damaged lines to set aside')
    .addHelpText(
      'after',
      `
Chat, invoke and mcp journal every write by default, in one SQLite file per person
(~/.local/state/cms-admin/changes.db) whose entries each name their site, account and run.
The intent is written before the write reaches WordPress: an entry marked "incomplete" was
begun and never completed (a process killed mid-write) and may have been applied; undo reads
the site and puts back what changed. A store past CMS_JOURNAL_MAX_MB (default 100) deletes
entries older than CMS_JOURNAL_KEEP_DAYS (default 90) by itself. The store needs Node 22.13 or
newer (node:sqlite): on an older Node, changes, undo, chat and mcp say so as they start, with how
to get one. See docs/undo.md.`,
    )
    .action(async (options: ChangesOptions) => {
      const { showChanges } = await import('./changes-show.js');
      process.exitCode = await showChanges(options);
    });
  program
    .command('undo')
    .description('Undo a change (default: the last one not undone), or the last N with --last')
    .argument('[change_id]', 'a change id from `cms-admin changes` (undo an undo to redo)')
    .option('--last <n>', 'undo the last N changes, newest first; names those that cannot be undone, and why')
    .option('--dry-run', 'say what would be restored; change nothing')
    .option('--force', 'also restore what changed again since (conflicts)')
    .option('-y, --yes', 'do not ask; needed when there is no terminal')
    .option('--json', 'print the reports as JSON')
    .option(...JOURNAL_FLAG)
    .option(...STORE_FLAG)
    .option('--run <id>', 'undo a fleet run (`invoke --sites` prints its id) on every site it changed')
    .option('--sites <sites>', 'with --run: only these site profiles (a,b | @group | all; default all)')
    .addHelpText(
      'after',
      `
With --run ID, each site's journal is read for that run's changes; one question lists what
every site gets back, then each site is undone (a site's failure is its own).
An undo is a write: it says what it will restore, in the words of the tools that would make the
same change forward, and asks y/N in a terminal; without one it is refused unless --yes. Many
accounts or terms of one kind are one line: the count and the first names (at most 1,500
characters a change, whatever its size). Objects changed since the change are conflicts, left as they are unless
--force. The undo is journalled too: undo its id to redo. Only the account that made a change
sees and undoes it (by user id). Without a change id, undo refuses (journal_damaged) while a
damaged line lies among the latest changes: give the id, or run \`changes --repair\`. When the last
change cannot be undone, the error names the most recent one that can (undo it by its id).
--last N counts the last N changes, those that cannot be undone included, and ends with
"undid K of the last N changes" and each one not undone, with why.
Exit codes: 0 all asked for was undone (--dry-run: would be), 1 anything not undone or left
(a change that cannot be undone, a conflict, refused), 2 bad arguments. See docs/undo.md.`,
    )
    .action(async (changeId: string | undefined, options: UndoCliOptions & { run?: string; sites?: string }) => {
      if (options.run !== undefined) {
        if (changeId !== undefined || options.last !== undefined) {
          process.stderr.write('Give a change id, --last N or --run ID, not two of them.\n');
          process.exitCode = 2;
          return;
        }
        const { runUndoRun } = await import('./undo-run.js');
        process.exitCode = await runUndoRun(options.run, options);
        return;
      }
      const { runUndo } = await import('./changes-run.js');
      process.exitCode = await runUndo(changeId, options);
    });
}
