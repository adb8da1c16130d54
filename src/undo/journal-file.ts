import { open, stat } from 'node:fs/promises';
import type { DamagedLine, JournalLine } from '../tools/journal-port.js';

/**
 * Reading the change journal's JSON-lines file (issue #34): from its end, so the latest changes
 * cost what they cost and not the whole file, and saying where a line is damaged instead of
 * skipping it without a word.
 */

export type { DamagedLine, JournalLine } from '../tools/journal-port.js';

export function isDamaged<T>(item: JournalLine<T>): item is DamagedLine {
  return (item as DamagedLine).damaged === true;
}

const CHUNK = 1 << 16;

/** The file's lines, last first, each with its byte offset; nothing when the file is not there. */
export async function* linesBackward(path: string): AsyncGenerator<{ bytes: Buffer; offset: number; open: boolean }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    let pos = (await handle.stat()).size;
    // The file's last line is "open" when no newline ends it (a write cut short).
    const end1 = Buffer.alloc(1);
    if (pos > 0) await handle.read(end1, 0, 1, pos - 1);
    let openEnd = pos > 0 && end1[0] !== 0x0a;
    // Bytes from an unknown line start to the end of the line after them (a line across chunks).
    let tail = Buffer.alloc(0);
    while (pos > 0) {
      const n = Math.min(CHUNK, pos);
      pos -= n;
      const chunk = Buffer.allocUnsafe(n);
      await handle.read(chunk, 0, n, pos);
      const data = tail.length ? Buffer.concat([chunk, tail]) : chunk;
      let end = data.length;
      let nl = data.lastIndexOf(0x0a, end - 1);
      while (nl >= 0) {
        if (end > nl + 1) yield { bytes: data.subarray(nl + 1, end), offset: pos + nl + 1, open: openEnd };
        openEnd = false;
        end = nl;
        nl = end > 0 ? data.lastIndexOf(0x0a, end - 1) : -1;
      }
      tail = data.subarray(0, end);
    }
    if (tail.length) yield { bytes: tail, offset: 0, open: openEnd };
  } finally {
    await handle.close();
  }
}

/**
 * One line as entries: the entry, or the damage — and an entry a writer before issue #34 glued
 * onto a line cut short (`…cut{"change_id":…}`) is recovered, newest first like the rest.
 */
export function parseLine<T>(bytes: Buffer, offset: number, open: boolean, valid: (value: unknown) => boolean): JournalLine<T>[] {
  const text = bytes.toString('utf8');
  if (!text.trim()) return [];
  const value = parseJson(text);
  if (value !== undefined && valid(value)) return [value as T];
  const damage: DamagedLine = { damaged: true, offset, why: open || value === undefined ? 'cut short' : 'not a change entry' };
  // Entries start with their id (JSON.stringify keeps the key order they are built in).
  const glued = text.lastIndexOf('{"change_id":"');
  if (glued > 0) {
    const rest = parseJson(text.slice(glued));
    if (rest !== undefined && valid(rest)) return [rest as T, { ...damage, why: 'cut short, the next entry joined to it (recovered)' }];
  }
  return [damage];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Items of the file, newest first. */
export async function* itemsBackward<T>(path: string, valid: (value: unknown) => boolean): AsyncGenerator<JournalLine<T>> {
  for await (const { bytes, offset, open } of linesBackward(path)) yield* parseLine<T>(bytes, offset, open, valid);
}

/** The 1-based line number at `offset` (counts newlines before it: read only when damage is named). */
export async function lineNumberAt(path: string, offset: number): Promise<number> {
  const handle = await open(path, 'r');
  try {
    let line = 1;
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let pos = 0; pos < offset; ) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, offset - pos), pos);
      if (!bytesRead) break;
      for (let i = buf.indexOf(0x0a, 0); i >= 0 && i < bytesRead; i = buf.indexOf(0x0a, i + 1)) line++;
      pos += bytesRead;
    }
    return line;
  } finally {
    await handle.close();
  }
}

/**
 * How many lines the file has (its last one counted when no newline ends it): newlines counted
 * in 1 MB reads, nothing parsed, so a total costs a read of the file and no memory.
 */
export async function countLines(path: string): Promise<number> {
  const { size } = await stat(path).catch(() => ({ size: 0 }));
  if (!size) return 0;
  const lines = (await lineNumberAt(path, size)) - 1;
  const handle = await open(path, 'r');
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a ? lines : lines + 1;
  } finally {
    await handle.close();
  }
}

/** "line 812 of /path/changes.jsonl is damaged (cut short)". */
export async function describeDamage(path: string, damage: DamagedLine): Promise<string> {
  const line = await lineNumberAt(path, damage.offset).catch(() => undefined);
  return `${line ? `line ${line}` : `the line at byte ${damage.offset}`} of ${path} is damaged (${damage.why})`;
}
