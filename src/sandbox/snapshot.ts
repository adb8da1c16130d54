import { readJson, writeJson } from './files.js';
import { DB_NAME, sql } from './mariadb.js';
import type { InstancePaths } from './paths.js';

/**
 * Database snapshots as sibling databases (`snap_<label>`) copied with
 * server-side SQL: no dump tool needed (Debian's mariadb-client-core has no
 * mariadb-dump) and no round trip through text, so a seeded site is saved or
 * restored in a fraction of a second while the server keeps running.
 */

const LABEL_RE = /^[a-z0-9_]{1,48}$/;

export interface SnapshotMeta {
  createdAt: string;
  /** Whether the database held the seed dataset when the snapshot was taken. */
  seeded: boolean;
  /** sha256 of seed.php for `seeded` snapshots, to detect a changed dataset. */
  seedHash?: string;
}

type SnapshotIndex = Record<string, SnapshotMeta>;

export function snapshotDb(label: string): string {
  if (!LABEL_RE.test(label))
    throw new Error(`invalid snapshot label ${JSON.stringify(label)}: use a-z, 0-9 and _ (max 48)`);
  return `snap_${label}`;
}

interface TableInfo {
  name: string;
  autoIncrement?: number;
}

async function tables(inst: InstancePaths, schema: string): Promise<TableInfo[]> {
  const rows = await sql(
    inst,
    `SELECT table_name, auto_increment FROM information_schema.tables WHERE table_schema = '${schema}' AND table_type = 'BASE TABLE' ORDER BY table_name;`,
  );
  return rows.map(([name = '', ai = 'NULL']) => ({ name, autoIncrement: ai === 'NULL' ? undefined : Number(ai) }));
}

const q = (id: string) => `\`${id.replace(/`/g, '``')}\``;

/**
 * Copy every table of `from` into a new database `to` (dropped first). CREATE ... LIKE keeps
 * indexes; AUTO_INCREMENT is carried over explicitly because INSERT ... SELECT only advances it to
 * MAX(id)+1, and ids after a restore must match ids after the original run.
 */
async function copyDatabase(inst: InstancePaths, from: string, to: string): Promise<void> {
  const source = await tables(inst, from);
  const stmts = [
    'SET SESSION foreign_key_checks = 0, unique_checks = 0;',
    `DROP DATABASE IF EXISTS ${q(to)};`,
    `CREATE DATABASE ${q(to)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`,
  ];
  for (const t of source) {
    stmts.push(`CREATE TABLE ${q(to)}.${q(t.name)} LIKE ${q(from)}.${q(t.name)};`);
    stmts.push(`INSERT INTO ${q(to)}.${q(t.name)} SELECT * FROM ${q(from)}.${q(t.name)};`);
    if (t.autoIncrement !== undefined)
      stmts.push(`ALTER TABLE ${q(to)}.${q(t.name)} AUTO_INCREMENT = ${t.autoIncrement};`);
  }
  await sql(inst, stmts.join('\n'));
}

/** What a restore compares, per table: its rows' checksum, AUTO_INCREMENT and definition (columns, indexes). */
interface TableState {
  autoIncrement?: number;
  definition: string;
  checksum?: string;
}

const lit = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

async function tableStates(inst: InstancePaths, schemas: string[]): Promise<Map<string, Map<string, TableState>>> {
  const inList = schemas.map(lit).join(', ');
  const rows = await sql(
    inst,
    [
      'SET SESSION group_concat_max_len = 1000000;',
      `SELECT 'T', table_schema, table_name, IFNULL(auto_increment, 'NULL') FROM information_schema.tables WHERE table_schema IN (${inList}) AND table_type = 'BASE TABLE';`,
      `SELECT 'C', table_schema, table_name, SHA1(GROUP_CONCAT(column_name, ':', column_type, ':', is_nullable, ':', IFNULL(column_default, '~'), ':', extra, ':', IFNULL(collation_name, '') ORDER BY ordinal_position SEPARATOR '|')) FROM information_schema.columns WHERE table_schema IN (${inList}) GROUP BY table_schema, table_name;`,
      `SELECT 'I', table_schema, table_name, SHA1(GROUP_CONCAT(index_name, ':', seq_in_index, ':', column_name, ':', non_unique, ':', IFNULL(sub_part, '') ORDER BY index_name, seq_in_index SEPARATOR '|')) FROM information_schema.statistics WHERE table_schema IN (${inList}) GROUP BY table_schema, table_name;`,
    ].join('\n'),
    null,
  );
  const out = new Map(schemas.map((s) => [s, new Map<string, TableState>()]));
  for (const [kind = '', schema = '', table = '', value = ''] of rows) {
    const tables = out.get(schema);
    if (!tables) continue;
    if (kind === 'T') tables.set(table, { definition: '', ...(value === 'NULL' ? {} : { autoIncrement: Number(value) }) });
    const state = tables.get(table);
    if (state && (kind === 'C' || kind === 'I')) state.definition += `${kind}${value}`;
  }
  const names = [...out.entries()].flatMap(([schema, tables]) => [...tables.keys()].map((t) => `${q(schema)}.${q(t)}`));
  if (names.length) {
    // CHECKSUM TABLE names each table "schema.table" in its answer.
    for (const [name = '', checksum = ''] of await sql(inst, `CHECKSUM TABLE ${names.join(', ')};`, null)) {
      const dot = name.indexOf('.');
      const state = out.get(name.slice(0, dot))?.get(name.slice(dot + 1));
      if (state) state.checksum = checksum;
    }
  }
  return out;
}

/**
 * Make `to` hold what `from` holds, touching only what differs: a table whose rows, AUTO_INCREMENT
 * and definition match is left alone; one whose rows differ is emptied and refilled (DML, no DDL);
 * one whose definition differs, or that is missing, is created again; one `from` lacks is dropped.
 * Restoring after a test that wrote a few terms rewrites those tables, not the whole database
 * (measured: docs/testing.md); test/sandbox/snapshot-restore.test.ts checks that every table's rows,
 * AUTO_INCREMENT and definition then equal the snapshot's.
 */
async function syncDatabase(inst: InstancePaths, from: string, to: string): Promise<void> {
  const states = await tableStates(inst, [from, to]);
  const source = states.get(from) as Map<string, TableState>;
  const target = states.get(to) as Map<string, TableState>;
  const stmts: string[] = [];
  for (const name of target.keys()) if (!source.has(name)) stmts.push(`DROP TABLE ${q(to)}.${q(name)};`);
  for (const [name, want] of source) {
    const have = target.get(name);
    const src = `${q(from)}.${q(name)}`;
    const dst = `${q(to)}.${q(name)}`;
    if (!have || have.definition !== want.definition) {
      if (have) stmts.push(`DROP TABLE ${dst};`);
      stmts.push(`CREATE TABLE ${dst} LIKE ${src};`, `INSERT INTO ${dst} SELECT * FROM ${src};`);
    } else if (have.checksum !== want.checksum) {
      stmts.push(`DELETE FROM ${dst};`, `INSERT INTO ${dst} SELECT * FROM ${src};`);
    } else if (have.autoIncrement === want.autoIncrement) continue;
    if (want.autoIncrement !== undefined) stmts.push(`ALTER TABLE ${dst} AUTO_INCREMENT = ${want.autoIncrement};`);
  }
  if (stmts.length === 0) return;
  await sql(inst, ['SET SESSION foreign_key_checks = 0, unique_checks = 0;', ...stmts].join('\n'), null);
}

async function readIndex(inst: InstancePaths): Promise<SnapshotIndex> {
  return (await readJson<SnapshotIndex>(inst.snapshotsFile)) ?? {};
}

export async function snapshotExists(inst: InstancePaths, label: string): Promise<boolean> {
  const db = snapshotDb(label);
  const rows = await sql(inst, `SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '${db}';`);
  return rows[0]?.[0] === '1';
}

export async function snapshotMeta(inst: InstancePaths, label: string): Promise<SnapshotMeta | undefined> {
  snapshotDb(label);
  if (!(await snapshotExists(inst, label))) return undefined;
  return (await readIndex(inst))[label] ?? { createdAt: 'unknown', seeded: false };
}

export async function writeSnapshot(
  inst: InstancePaths,
  label: string,
  meta: Omit<SnapshotMeta, 'createdAt'>,
): Promise<void> {
  await copyDatabase(inst, DB_NAME, snapshotDb(label));
  const index = await readIndex(inst);
  index[label] = { createdAt: new Date().toISOString(), ...meta };
  await writeJson(inst.snapshotsFile, index);
}

/** Replace the live database with the snapshot; returns its metadata. */
export async function loadSnapshot(inst: InstancePaths, label: string): Promise<SnapshotMeta> {
  const meta = await snapshotMeta(inst, label);
  if (!meta) throw new Error(`no snapshot "${label}" in sandbox "${inst.name}"`);
  await syncDatabase(inst, snapshotDb(label), DB_NAME);
  return meta;
}
