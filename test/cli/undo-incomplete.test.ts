import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { readTerm } from '../wordpress/taxonomy/fixtures.js';

/**
 * Issue #34, finding 6: an undo cut short by a fault (the site answering 500) is said as such
 * by the CLI — incomplete, why, and that a rerun finishes it — never as someone else's edit.
 */
let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
});
afterAll(() => proxy.stop());

it('undo cut short by a 500: the CLI says incomplete, why, and that a rerun finishes it; the rerun does', async () => {
  const site = testSite();
  const env = {
    CMS_URL: proxy.url,
    CMS_USERNAME: site.username,
    CMS_APP_PASSWORD: site.appPassword,
    CMS_JOURNAL: path.join(mkdtempSync(path.join(tmpdir(), 'undo-fault-')), 'changes.jsonl'),
  };
  const name = unique('Fault undo');
  const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
  const renamed = await runCli(['invoke', JSON.stringify({ tool: 'update-category', params: { id: cat.id, name: `${name} 2` } })], { env });
  expect(renamed.code, renamed.stderr).toBe(0);

  // The undo's one write (the rename back) gets a 500 from the site.
  proxy.clear().inject({
    method: 'POST',
    path: new RegExp(`/wp/v2/categories/${cat.id}\\b`),
    limit: 1,
    fault: { kind: 'status', status: 500, when: 'before' },
  });
  const cut = await runCli(['undo', '--yes'], { env });
  expect(cut.code).toBe(1);
  expect(cut.stdout).toContain('incomplete');
  expect(cut.stdout).toMatch(/1 write\(s\) failed \(category \d+ '[^']+': could not be changed back: /);
  expect(cut.stdout).toMatch(/undoing c\w+ again finishes it/);
  expect(cut.stdout).not.toContain('changed since');
  expect((await readTerm('categories', cat.id))?.name).toBe(`${name} 2`);

  proxy.clear();
  const rerun = await runCli(['undo', '--yes'], { env });
  expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
  expect(rerun.stdout).not.toContain('incomplete');
  expect((await readTerm('categories', cat.id))?.name).toBe(name);
});
