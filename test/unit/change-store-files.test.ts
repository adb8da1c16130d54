import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, rmSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changeStore } from '../../src/undo/change-store.js';
import { fileJournal, newChangeId, type ChangeEntry } from '../../src/undo/journal.js';
import { siteKey } from '../../src/undo/site-key.js';

/**
 * Issue #59, "the store detects every way it can be lost", on real files and real processes:
 * the `-wal`/`-shm` deleted while a process holds the store open (finding 5), a store whose first
 * bytes are damaged (finding 6), an old JSON Lines journal read before any site imported it
 * (finding 11).
 */
const SITE = siteKey('http://127.0.0.1:9300');
const dir = () => mkdtempSync(path.join(tmpdir(), 'store-files-'));
const entry = (summary: string): ChangeEntry => ({
  change_id: newChangeId(),
  at: new Date().toISOString(),
  tool: 'update-category',
  params: { id: 1 },
  summary,
  reversible: true,
  before: {},
  after: {},
});

const JOURNAL = JSON.stringify(path.resolve('src/undo/journal.ts'));
/** A process that keeps the store open and appends one entry per line it reads ("exit" ends it). */
const HOLDER = `
  const { fileJournal, newChangeId } = await import(${JOURNAL});
  const j = fileJournal(process.argv[1]).forSite(${JSON.stringify(SITE)});
  const add = (summary) => j.append({ change_id: newChangeId(), at: new Date().toISOString(), tool: 't', params: {}, summary, reversible: true, before: {}, after: {} });
  const lines = (await import('node:readline')).createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === 'exit') break;
    try { await add(line); console.log('ok ' + line); } catch (err) { console.log('error ' + err.code + ' ' + err.message); }
  }
  process.stdin.destroy();
`;
/** A process that appends N entries and ends. */
const WRITER = `
  const { fileJournal, newChangeId } = await import(${JOURNAL});
  const j = fileJournal(process.argv[1]).forSite(${JSON.stringify(SITE)});
  for (let i = 0; i < Number(process.argv[2]); i++)
    await j.append({ change_id: newChangeId(), at: new Date().toISOString(), tool: 't', params: {}, summary: 'B' + i, reversible: true, before: {}, after: {} });
`;
const node = (script: string, args: string[]) =>
  spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });

const children: Array<ReturnType<typeof node>> = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill();
});

/** The holder: `say(line)` resolves with its answer to that line. */
function holder(file: string) {
  const child = node(HOLDER, [file]);
  children.push(child);
  let buffered = '';
  const waiting: Array<(line: string) => void> = [];
  child.stdout.on('data', (d) => {
    buffered += d;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      waiting.shift()?.(line);
    }
  });
  return {
    say: (line: string) =>
      new Promise<string>((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${line}\n`);
      }),
    exit: () =>
      new Promise<number | null>((resolve) => {
        child.on('exit', resolve);
        child.stdin.write('exit\n');
      }),
  };
}

const runWriter = (file: string, n: number) =>
  new Promise<number | null>((resolve) => {
    const child = node(WRITER, [file, String(n)]);
    child.on('exit', resolve);
  });

describe("the -wal and -shm deleted while a process holds the store open (#59.5)", () => {
  it("another process's entries written after it are all kept, and the holder's next write lands where every process reads", { timeout: 120_000 }, async () => {
    const file = path.join(dir(), 'changes.db');
    const a = holder(file);
    expect(await a.say('A before')).toBe('ok A before');
    rmSync(`${file}-wal`);
    rmSync(`${file}-shm`);
    // Another process: five writes, each answered ok.
    expect(await runWriter(file, 5)).toBe(0);
    // The holder writes again, then ends (closing the store).
    expect(await a.say('A after')).toBe('ok A after');
    expect(await a.exit()).toBe(0);
    const summaries = (await fileJournal(file).entries()).map((e) => e.summary);
    await changeStore(file).close();
    expect(summaries.sort()).toEqual(['A after', 'A before', 'B0', 'B1', 'B2', 'B3', 'B4']);
  });
});

describe('a store whose first bytes are damaged (#59.6)', () => {
  it('is refused (journal_unavailable, naming the file and the fix), never taken for an old journal: no <store>.db, the entries stay in the file', async () => {
    const file = path.join(dir(), 'changes.db');
    const journal = fileJournal(file).forSite!(SITE);
    for (let i = 0; i < 20; i++) await journal.append(entry(`n${i}`));
    await changeStore(file).close();
    // The header's first bytes overwritten (a bad sector, a stray write).
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.from('garbage, not SQLite'), 0, 16, 0);
    closeSync(fd);

    const refused = { code: 'journal_unavailable', message: expect.stringContaining(file), hint: expect.stringContaining('Move the file aside') };
    await expect(fileJournal(file).forSite!(SITE).append(entry('after'))).rejects.toMatchObject(refused);
    await expect(fileJournal(file).entries()).rejects.toMatchObject(refused);
    await expect(fileJournal(file).forSite!(SITE).append(entry('after'))).rejects.toMatchObject({
      message: expect.stringMatching(/neither a SQLite database nor a JSON Lines journal/),
    });
    expect(existsSync(`${file}.db`)).toBe(false);
  });

  it('a process that holds the store open notices the damage before its next write', async () => {
    const file = path.join(dir(), 'held.db');
    const journal = fileJournal(file).forSite!(SITE);
    await journal.append(entry('first'));
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(16, 0x41), 0, 16, 0);
    closeSync(fd);
    await expect(journal.append(entry('second'))).rejects.toMatchObject({ code: 'journal_unavailable', message: expect.stringContaining(file) });
    await changeStore(file).close();
  });
});

describe('an old JSON Lines journal read before any site imported it (#59.11)', () => {
  it("a view of every site shows its entries (they are imported, under their site, when a site's view opens it)", async () => {
    const d = dir();
    const old = path.join(d, 'old.jsonl');
    const a = entry('old a');
    const b = entry('old b');
    writeFileSync(old, `${JSON.stringify(a)}\n${JSON.stringify(b)}\n`);
    const store = changeStore(old);
    expect((await store.journal().entries()).map((e) => e.summary)).toEqual(['old a', 'old b']);
    expect(await store.count()).toBe(2);
    const newest: string[] = [];
    for await (const item of store.journal().latest!()) newest.push((item as ChangeEntry).summary);
    expect(newest).toEqual(['old b', 'old a']);
    // A site's view imports it; the view of every site then shows each entry once.
    await store.journal(SITE).append(entry('new'));
    expect((await store.journal().entries()).map((e) => e.summary)).toEqual(['old a', 'old b', 'new']);
    expect(await store.count()).toBe(3);
    await store.close();
  });
});
