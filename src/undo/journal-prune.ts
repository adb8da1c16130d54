import { createReadStream } from 'node:fs';
import { appendFile, open, rename, rm, stat } from 'node:fs/promises';
import { isDamaged, parseLine } from './journal-file.js';

/**
 * Keeping the journal's file in bounds (issue #34), and setting damaged lines aside. Entries
 * taken out of the journal go to `<file>.1` (0600, appended, oldest first): they can no longer
 * be undone, and `cms-admin changes --journal <file>.1` still reads them. The file is rewritten
 * to a temporary file beside it and renamed over it, so a reader sees the old file or the new
 * one; lines appended meanwhile are carried over before the rename.
 */

export interface PruneRule {
  /** Entries older than this many milliseconds leave the journal. */
  olderThanMs?: number;
  /** Then the oldest entries leave until the file is at most this many bytes. */
  maxBytes?: number;
  /** Damaged lines go to `<file>.damaged` (entries glued onto them are kept, on their own line). */
  repair?: boolean;
}

export interface PruneResult {
  kept: number;
  moved: number;
  damaged: number;
  movedTo: string;
  damagedTo: string;
}

const isEntry = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { change_id?: unknown }).change_id === 'string';

/** The automatic rule: past CMS_JOURNAL_MAX_MB (default 100), entries older than CMS_JOURNAL_KEEP_DAYS (default 90) move to `.1`. */
export function autoRule(): { maxBytes: number; keepMs: number } {
  const mb = Number(process.env.CMS_JOURNAL_MAX_MB ?? 100);
  const days = Number(process.env.CMS_JOURNAL_KEEP_DAYS ?? 90);
  return { maxBytes: (Number.isFinite(mb) ? mb : 100) * 1e6, keepMs: (Number.isFinite(days) ? days : 90) * 86_400_000 };
}

/**
 * After an append: when the file has passed the size limit and its first entry is older than
 * the age kept, the old entries move to `.1`. A file whose entries are all recent stays (only
 * its first line is read).
 */
export async function rotateIfLarge(path: string): Promise<PruneResult | undefined> {
  const { maxBytes, keepMs } = autoRule();
  if (maxBytes <= 0) return undefined;
  const size = await stat(path).then((s) => s.size, () => 0);
  if (size <= maxBytes) return undefined;
  const first = await firstEntryTime(path);
  if (first === undefined || Date.now() - first <= keepMs) return undefined;
  return pruneJournal(path, { olderThanMs: keepMs });
}

/** readline and stream load when a journal is read this way, not at every start (BENCHMARKS.md, #35). */
const readlineModule = () => import('node:readline');

async function firstEntryTime(path: string): Promise<number | undefined> {
  const { createInterface } = await readlineModule();
  const lines = createInterface({ input: createReadStream(path, { end: 1 << 20 }), crlfDelay: Infinity });
  for await (const line of lines) {
    const [item] = parseLine<{ at?: string }>(Buffer.from(line), 0, false, isEntry);
    if (!item || isDamaged(item)) continue;
    lines.close();
    return Date.parse(item.at ?? '');
  }
  return undefined;
}

/** Rewrites the journal by `rule` (`cms-admin changes --prune`, `--repair`, the automatic rule). */
export async function pruneJournal(path: string, rule: PruneRule): Promise<PruneResult> {
  const result: PruneResult = { kept: 0, moved: 0, damaged: 0, movedTo: `${path}.1`, damagedTo: `${path}.damaged` };
  const lock = `${path}.prune-lock`;
  const held = await open(lock, 'wx', 0o600).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
    // A lock older than ten minutes was left by a process that died mid-prune.
    if (Date.now() - (await stat(lock)).mtimeMs < 600_000) throw new Error(`another prune of ${path} is running (${lock})`);
    await rm(lock, { force: true });
    return open(lock, 'wx', 0o600);
  });
  const temp = `${path}.rewrite-${process.pid}`;
  try {
    const size = (await stat(path)).size;
    const cutoff = rule.olderThanMs === undefined ? undefined : Date.now() - rule.olderThanMs;
    // By size: the bytes that must go, oldest first.
    let over = rule.maxBytes === undefined ? 0 : Math.max(0, size - rule.maxBytes);
    const out = await open(temp, 'w', 0o600);
    const moved: string[] = [];
    const damaged: string[] = [];
    const kept: string[] = [];
    try {
      // Up to the size read now: what is appended meanwhile is carried over as it is.
      const { createInterface } = await readlineModule();
      const { Readable } = await import('node:stream');
      const input = size ? createReadStream(path, { end: size - 1 }) : Readable.from([]);
      const lines = createInterface({ input, crlfDelay: Infinity });
      let line = 0;
      for await (const text of lines) {
        line++;
        if (!text.trim()) continue;
        const items = parseLine<{ at?: string }>(Buffer.from(text), 0, false, isEntry).reverse();
        for (const item of items) {
          if (isDamaged(item)) {
            if (rule.repair) {
              damaged.push(`${JSON.stringify({ line, why: item.why })} ${text}`);
              result.damaged++;
            } else kept.push(text);
            continue;
          }
          const json = items.length > 1 ? JSON.stringify(item) : text;
          const old = cutoff !== undefined && Date.parse(item.at ?? '') < cutoff;
          if (old || over > 0) {
            over -= json.length + 1;
            moved.push(json);
            result.moved++;
          } else {
            kept.push(json);
            result.kept++;
          }
        }
        if (moved.length >= 1000) await appendFile(result.movedTo, `${moved.splice(0).join('\n')}\n`, { mode: 0o600 });
        if (kept.length >= 1000) await out.write(`${kept.splice(0).join('\n')}\n`);
      }
      if (kept.length) await out.write(`${kept.join('\n')}\n`);
      if (moved.length) await appendFile(result.movedTo, `${moved.join('\n')}\n`, { mode: 0o600 });
      if (damaged.length) await appendFile(result.damagedTo, `${damaged.join('\n')}\n`, { mode: 0o600 });
      await carryOver(path, size, out);
    } finally {
      await out.close();
    }
    await rename(temp, path);
    return result;
  } finally {
    await rm(temp, { force: true });
    await held.close();
    await rm(lock, { force: true });
  }
}

/** Lines appended to the journal while it was being rewritten go to the new file too. */
async function carryOver(path: string, from: number, out: Awaited<ReturnType<typeof open>>): Promise<void> {
  const source = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let pos = from; ; ) {
      const { bytesRead } = await source.read(buf, 0, buf.length, pos);
      if (!bytesRead) return;
      await out.write(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
  } finally {
    await source.close();
  }
}
