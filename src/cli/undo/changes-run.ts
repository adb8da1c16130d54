import { createInterface } from 'node:readline/promises';
import { approveAll, type Approver } from '../../call/index.js';
import { createContext } from '../../config.js';
import { ToolError } from '../../tools/tool-error.js';
import { describeUndo, undoWithApproval } from './undo-approve.js';
import { cliJournal } from '../journal-path.js';
import { resolveCliSiteConfig } from '../site-config.js';
import { terminalApprover } from '../render/terminal.js';

export interface UndoCliOptions {
  journal?: string;
  /** The change store of `mcp --store` (postgres://…); --journal wins. */
  store?: string;
  last?: string;
  dryRun?: boolean;
  force?: boolean;
  yes?: boolean;
  json?: boolean;
}

/** `cms-admin undo`: asks in a terminal, refuses without one unless --yes. */
export async function runUndo(changeId: string | undefined, options: UndoCliOptions): Promise<number> {
  const last = options.last === undefined ? undefined : Number(options.last);
  if (last !== undefined && (!Number.isInteger(last) || last < 1)) {
    process.stderr.write('--last takes a whole number ≥ 1.\n');
    return 2;
  }
  if (last !== undefined && changeId !== undefined) {
    process.stderr.write('Give a change id or --last N, not both.\n');
    return 2;
  }
  const site = await resolveCliSiteConfig();
  const file = cliJournal(options.journal || options.store, site.url);
  if (file === 'off') {
    process.stderr.write('The change journal is off (--journal off / CMS_JOURNAL=off): nothing can be undone.\n');
    return 2;
  }
  // The store's view of this site (createContext binds it): undo reads this site's changes only.
  const context = createContext(site, { journal: file });
  const journal = context.journal as NonNullable<typeof context.journal>;
  await context.client.connect();
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const rl =
    interactive && !options.yes ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
  const approver: Approver = options.yes
    ? approveAll
    : rl
      ? terminalApprover(rl, process.stdout, () => undefined)
      : async () => ({
          approved: false,
          reason: 'An undo is a write and needs approval: run it in a terminal, or pass --yes.',
        });
  try {
    const outcome = await undoWithApproval(context, journal, approver, {
      change_id: changeId,
      last,
      force: options.force,
      dry_run: options.dryRun,
    });
    if ('refused' in outcome) {
      process.stderr.write(`Not undone: ${outcome.refused}\n`);
      return 1;
    }
    if (options.json) process.stdout.write(`${JSON.stringify(outcome.reports, null, 2)}\n`);
    else {
      // A dry run says what the question would say (tools/changes/undo-review.ts).
      const lines = options.dryRun
        ? outcome.question
        : outcome.reports.map((r) => `${describeUndo(r)}${r.undo_change_id ? ` (as ${r.undo_change_id})` : ''}`);
      // --last N: how many of the N it undid, and each it did not, with why (#36).
      for (const line of [...lines, ...(outcome.tally ?? [])]) process.stdout.write(`${line}\n`);
    }
    // 0 only when it did (or, dry, would do) all it was asked.
    return outcome.complete ? 0 : 1;
  } catch (err) {
    if (err instanceof ToolError) {
      process.stderr.write(`${err.code}: ${err.message}${err.hint ? `\n${err.hint}` : ''}\n`);
      return 1;
    }
    throw err;
  } finally {
    rl?.close();
  }
}
