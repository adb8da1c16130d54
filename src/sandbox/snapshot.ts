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
 * Copy every table of `from` into `to` (which is emptied first). CREATE ...
 * LIKE keeps indexes; AUTO_INCREMENT is carried over explicitly because
 * INSERT ... SELECT only advances it to MAX(id)+1, and ids after a restore
 * must match ids after the original run.
 */
async function copyDatabase(inst: InstancePaths, from: string, to: string, recreate: boolean): Promise<void> {
  const source = await tables(inst, from);
  const stmts = ['SET SESSION foreign_key_checks = 0, unique_checks = 0;'];
  if (recreate) {
    stmts.push(
      `DROP DATABASE IF EXISTS ${q(to)};`,
      `CREATE DATABASE ${q(to)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`,
    );
  } else {
    const existing = await tables(inst, to);
    if (existing.length > 0) stmts.push(`DROP TABLE ${existing.map((t) => `${q(to)}.${q(t.name)}`).join(', ')};`);
  }
  for (const t of source) {
    stmts.push(`CREATE TABLE ${q(to)}.${q(t.name)} LIKE ${q(from)}.${q(t.name)};`);
    stmts.push(`INSERT INTO ${q(to)}.${q(t.name)} SELECT * FROM ${q(from)}.${q(t.name)};`);
    if (t.autoIncrement !== undefined)
      stmts.push(`ALTER TABLE ${q(to)}.${q(t.name)} AUTO_INCREMENT = ${t.autoIncrement};`);
  }
  await sql(inst, stmts.join('\n'));
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
  await copyDatabase(inst, DB_NAME, snapshotDb(label), true);
  const index = await readIndex(inst);
  index[label] = { createdAt: new Date().toISOString(), ...meta };
  await writeJson(inst.snapshotsFile, index);
}

/** Replace the live database with the snapshot; returns its metadata. */
export async function loadSnapshot(inst: InstancePaths, label: string): Promise<SnapshotMeta> {
  const meta = await snapshotMeta(inst, label);
  if (!meta) throw new Error(`no snapshot "${label}" in sandbox "${inst.name}"`);
  await copyDatabase(inst, snapshotDb(label), DB_NAME, false);
  return meta;
}
