import { describe, expect, it } from 'vitest';
import { restoreSnapshot } from '../../src/sandbox/index.js';
import { sql } from '../../src/sandbox/mariadb.js';
import { resolveInstance } from '../../src/sandbox/paths.js';
import { testSandbox } from '../helpers/sandboxes.js';

/**
 * `restoreSnapshot` (site restore, the evals' and tests' restore between cases) rewrites only the
 * tables that differ from the snapshot. Whatever a test did to the database, afterwards every
 * table reads as the snapshot's: the same tables, rows (CHECKSUM TABLE), and definition with its
 * AUTO_INCREMENT (SHOW CREATE TABLE), so ids after a restore are the ids after the original run.
 */
const sandbox = testSandbox();
const opts = { home: sandbox.home, name: sandbox.name, port: sandbox.port, log: () => {} };
const inst = resolveInstance(opts);
const SNAP = 'snap_seeded';

async function database(schema: string): Promise<Record<string, { create: string; checksum: string }>> {
  const names = (await sql(inst, `SHOW TABLES FROM \`${schema}\`;`, null)).map(([name = '']) => name);
  const out: Record<string, { create: string; checksum: string }> = {};
  for (const name of names) {
    const [[, create = ''] = []] = await sql(inst, `SHOW CREATE TABLE \`${schema}\`.\`${name}\`;`, null);
    const [[, checksum = ''] = []] = await sql(inst, `CHECKSUM TABLE \`${schema}\`.\`${name}\`;`, null);
    out[name] = { create, checksum };
  }
  return out;
}

describe('snapshot restore', () => {
  it('gives back every table as the snapshot has it: rows, definition, AUTO_INCREMENT; added tables go, dropped ones return', async () => {
    const snapshot = await database(SNAP);
    expect(Object.keys(snapshot)).toContain('wp_terms');
    // Whatever the files before this one on the worker's site left.
    await restoreSnapshot(opts, 'seeded');
    expect(await database('wordpress')).toEqual(snapshot);
    await sql(
      inst,
      [
        // Rows changed.
        "UPDATE wp_terms SET name = 'changed by the test' ORDER BY term_id LIMIT 1;",
        "INSERT INTO wp_options (option_name, option_value, autoload) VALUES ('restore_test', 'x', 'no');",
        // Same rows, AUTO_INCREMENT moved on.
        "INSERT INTO wp_posts (post_title, post_content, post_excerpt, to_ping, pinged, post_content_filtered) VALUES ('gone', '', '', '', '', '');",
        "DELETE FROM wp_posts WHERE post_title = 'gone';",
        // Definitions changed, a table added, one dropped.
        'ALTER TABLE wp_links ADD COLUMN restore_test INT NULL;',
        'ALTER TABLE wp_usermeta ADD INDEX restore_test (meta_value(10));',
        'CREATE TABLE wp_restore_test (id INT PRIMARY KEY);',
        'DROP TABLE wp_termmeta;',
      ].join('\n'),
    );
    const changed = await database('wordpress');
    const differing = Object.keys({ ...snapshot, ...changed }).filter(
      (t) => JSON.stringify(snapshot[t]) !== JSON.stringify(changed[t]),
    );
    expect(differing.sort()).toEqual(['wp_links', 'wp_options', 'wp_posts', 'wp_restore_test', 'wp_termmeta', 'wp_terms', 'wp_usermeta']);

    await restoreSnapshot(opts, 'seeded');
    expect(await database('wordpress')).toEqual(snapshot);
    // And WordPress reads it: the first term has its name back.
    const res = await fetch(`${sandbox.url}/wp-json/wp/v2/categories?per_page=1&orderby=id`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).not.toContain('changed by the test');
  });
});
