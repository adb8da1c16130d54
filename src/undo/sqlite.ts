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
      throw new Error(`this Node (${process.version}) has no node:sqlite; the change journal needs Node 22.13 or newer (${(err as Error).message})`);
    } finally {
      process.emitWarning = emit;
    }
  })();
  return loading;
}
