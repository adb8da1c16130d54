import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileAuditSink, type AuditEntry } from '../../src/audit.js';
import { runCli } from '../helpers/cli.js';

const entry = (tool: string): AuditEntry => ({ time: new Date().toISOString(), user: 'admin', tool, params: {}, ok: true, summary: 'done' });

describe('the audit log shares the journal appender (#34.1)', () => {
  it('an append after a line cut short starts a fresh line, and cms-admin audit names the damaged line', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-')), 'audit.jsonl');
    const sink = fileAuditSink(file);
    await sink(entry('create-tag'));
    // A writer killed mid-line: half an entry, no newline.
    writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify(entry('cut-short')).slice(0, 30)}`);
    await sink(entry('delete-tag'));
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(JSON.parse(lines[2] as string).tool).toBe('delete-tag');

    const run = await runCli(['audit', '--audit-log', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('delete-tag');
    expect(run.stdout).toContain(`2 of 3 entries in ${file}`);
    expect(run.stderr).toContain(`line 2 of ${file} is damaged (cut short)`);
  }, 60_000);
});
