import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { AuditEntry } from '../audit.js';

interface AuditOptions {
  auditLog?: string;
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
    .addHelpText('after', '\nThe log is written by chat, invoke and mcp with --audit-log FILE or CMS_AUDIT_LOG.')
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
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    process.stderr.write(`Cannot read the audit log ${file}: ${(err as Error).message}\n`);
    return 1;
  }
  const lines = text.split('\n').filter((line) => line.trim());
  const entries: AuditEntry[] = [];
  let unreadable = 0;
  for (const line of lines.slice(-limit)) {
    try {
      entries.push(JSON.parse(line) as AuditEntry);
    } catch {
      unreadable += 1;
    }
  }
  if (options.json) {
    for (const entry of entries) process.stdout.write(`${JSON.stringify(entry)}\n`);
  } else {
    process.stdout.write(`${table(entries)}\n`);
    process.stdout.write(`${entries.length} of ${lines.length} entries in ${file}\n`);
  }
  if (unreadable) process.stderr.write(`${unreadable} line(s) are not JSON and were skipped.\n`);
  return 0;
}

function table(entries: AuditEntry[]): string {
  const rows = entries.map((e) => [
    e.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    e.user ?? '?',
    e.tool,
    e.ok ? 'ok' : 'FAILED',
    `${JSON.stringify(e.params)} → ${e.summary}`,
  ]);
  const head = ['time', 'user', 'tool', 'outcome', 'params → result'];
  const widths = head.slice(0, 4).map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < 4 ? cell.padEnd(widths[i] ?? 0) : cell.length > 100 ? `${cell.slice(0, 99)}…` : cell))
      .join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}
