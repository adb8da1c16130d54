import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../package-root.js';
import { ToolError } from '../tools/tool-error.js';

/**
 * Node's built-in SQLite (`node:sqlite`, without a flag from Node 22.13), loaded on first use: only a command that
 * journals pays for it. Node 22 marks the module experimental and warns on stderr when it loads;
 * that warning is about Node, not about anything a person did, so it is kept out of their output.
 */

/** The part of `node:sqlite` the change store uses (the package's @types/node predates it). */
export interface SqliteStatement {
  run(...params: SqliteValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqliteValue[]): Record<string, SqliteValue> | undefined;
  all(...params: SqliteValue[]): Record<string, SqliteValue>[];
}
export type SqliteValue = null | number | bigint | string | Uint8Array;
export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}
interface SqliteModule {
  DatabaseSync: new (path: string, options?: { timeout?: number }) => SqliteDatabase;
}

let loading: Promise<SqliteModule> | undefined;

/**
 * Why this Node cannot open the change store, or undefined when it can: `node:sqlite` is there
 * without a flag from Node 22.13 (and 23.4). Said once, here, for every path that needs the store
 * (#60.7: a bin on PATH run by Node 20 read fine, and every write failed with a hint about disk
 * space and permissions). `version`: process.versions.node.
 */
export function sqliteProblem(version = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > 23 || (major === 22 && minor >= 13) || (major === 23 && minor >= 4)) return undefined;
  return `cms-admin's change journal (what makes writes undoable) needs Node's built-in SQLite (node:sqlite), which this Node (v${version}) does not have: it needs Node 22.13 or newer (22 or 24).`;
}

/**
 * How to run on a Node that has node:sqlite: a checkout's `node` dev dependency (Node 22) when
 * there is one, else `npx -y -p node@24` from any folder, else install one. `bin`: the script
 * this process runs (the `cms-admin` a person typed, a symlink on PATH included).
 */
export function sqliteHint(bin = process.argv[1]): string {
  const node = checkoutNode();
  const here = node && bin ? `this checkout has one (its \`node\` dev dependency): ${node} ${bin} …; ` : '';
  return `Run it on Node 22.13 or newer: ${here}from any folder: npx -y -p node@24 -- node ${bin ?? '"$(command -v cms-admin)"'} …; or install Node 22 or 24 (nodejs.org, nvm install 24). --journal off (CMS_JOURNAL=off) writes without undo.`;
}

/** The refusal every path gives (the CLI at the start of a command that needs the store, a write's journal step). */
export function sqliteError(problem: string): ToolError {
  return new ToolError('node_too_old', problem, { hint: sqliteHint() });
}

/** A checkout's `node` dev dependency (the npm package `node`: its version is the Node's), when it has node:sqlite. */
function checkoutNode(): string | undefined {
  try {
    const root = packageRoot();
    const { version } = JSON.parse(readFileSync(path.join(root, 'node_modules', 'node', 'package.json'), 'utf8')) as { version?: string };
    const node = path.join(root, 'node_modules', '.bin', 'node');
    return version && !sqliteProblem(version) && existsSync(node) ? node : undefined;
  } catch {
    return undefined;
  }
}

export function loadSqlite(): Promise<SqliteModule> {
  loading ??= (async () => {
    const emit = process.emitWarning;
    process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
      const text = typeof warning === 'string' ? warning : warning?.message;
      if (/SQLite is an experimental feature/.test(String(text))) return;
      return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
    }) as typeof process.emitWarning;
    try {
      // A specifier the bundlers leave alone: a Node built-in, never bundled.
      const name = 'node:sqlite';
      return (await import(name)) as SqliteModule;
    } catch (err) {
      loading = undefined;
      throw sqliteError(sqliteProblem() ?? `this Node (${process.version}) has no node:sqlite: ${(err as Error).message}`);
    } finally {
      process.emitWarning = emit;
    }
  })();
  return loading;
}
