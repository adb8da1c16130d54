import { renderTable } from './render/table.js';
import type { Command } from 'commander';
import type { AuditEntry } from '../audit.js';
import { countLines, describeDamage, isDamaged, itemsBackward } from '../undo/journal-file.js';

interface AuditOptions {
  auditLog?: string;
  site?: string;
  limit: string;
  json?: boolean;
}

export function registerAuditCommand(program: Command): void {
  program
    .command('audit')
    .description('Show the last writes recorded in the audit log')
    .option('--audit-log <file>', 'the log to read (default: env CMS_AUDIT_LOG)')
    .option('-n, --limit <n>', 'how many of the latest entries', '20')
    .option('--json', 'print the entries as JSON lines')
    .addHelpText(
      'after',
      '\nThe log is written by chat, invoke and mcp with --audit-log FILE or CMS_AUDIT_LOG. With --site\n(or CMS_SITE) only the entries of that site profile are shown: a log shared by a fleet names each.',
    )
    .action(async (options: AuditOptions) => {
      process.exitCode = await showAudit(options);
    });
}

async function showAudit(options: AuditOptions): Promise<number> {
  const file = options.auditLog ?? process.env.CMS_AUDIT_LOG;
  const limit = Number(options.limit);
  if (!file) {
    process.stderr.write('No audit log given: pass --audit-log FILE or set CMS_AUDIT_LOG.\n');
    return 2;
  }
  if (!Number.isInteger(limit) || limit < 1) {
    process.stderr.write('--limit takes a whole number ≥ 1.\n');
    return 2;
  }
  // One log may serve a fleet: each entry names its site profile (`invoke --sites`, `--site`).
  const site = process.env.CMS_SITE?.trim() || undefined;
  const entries: AuditEntry[] = [];
  const damaged: string[] = [];
  let more = false;
  try {
    // From the file's end: the latest entries cost what they cost, not the whole log.
    for await (const item of itemsBackward<AuditEntry>(file, isAuditEntry)) {
      if (isDamaged(item)) damaged.push(await describeDamage(file, item));
      else if (site && item.site !== site) continue;
      else if (entries.length === limit) {
        more = true;
        break;
      } else entries.push(item);
    }
  } catch (err) {
    process.stderr.write(`Cannot read the audit log ${file}: ${(err as Error).message}\n`);
    return 1;
  }
  entries.reverse();
  if (options.json) {
    for (const entry of entries) process.stdout.write(`${JSON.stringify(entry)}\n`);
  } else {
    process.stdout.write(`${table(entries)}\n`);
    const total = more ? await countLines(file) : entries.length + damaged.length;
    process.stdout.write(`${entries.length} of ${total} entries in ${file}\n`);
  }
  // A damaged line (a write cut short by a full disk or a killed process) is named, not skipped silently.
  for (const where of damaged) process.stderr.write(`cms-admin: ${where}: it is skipped; the entries around it are listed.\n`);
  return 0;
}

const isAuditEntry = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as AuditEntry).tool === 'string';

function table(entries: AuditEntry[]): string {
  const rows = entries.map((e) => [
    e.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    e.user ?? '?',
    e.tool,
    e.ok ? 'ok' : 'FAILED',
    `${JSON.stringify(e.params)} → ${e.summary}`,
  ]);
  // A log shared by a fleet: the user column says on which site (user@site).
  if (entries.some((e) => e.site)) for (const [i, e] of entries.entries()) rows[i]?.splice(1, 1, `${e.user ?? '?'}@${e.site ?? '-'}`);
  return renderTable(['time', 'user', 'tool', 'outcome', 'params → result'], rows);
}
