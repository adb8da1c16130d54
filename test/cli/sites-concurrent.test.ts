import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProfiles } from '../../src/sites/store.js';
import { runCli } from '../helpers/cli.js';

// Several people's (or one script's) `sites add` at the same moment (issue #38: "nothing is lost").
describe('sites add, many at once', { timeout: 240_000 }, () => {
  it('ten adds at once keep all ten profiles; two adds of one name: one saved, the other told it exists', async () => {
    const configHome = mkdtempSync(path.join(tmpdir(), 'cms-sites-race-'));
    const env = { XDG_CONFIG_HOME: configHome, CMS_SITES_FILE: undefined, CMS_SITE: undefined };
    const add = (name: string, url: string) =>
      runCli(['sites', 'add', name, '--url', url, '--username', 'admin', '--no-check'], {
        input: 'abcd efgh ijkl mnop qrst uvwx',
        env,
        timeoutMs: 120_000,
      });
    const names = Array.from({ length: 10 }, (_, i) => `shop-${i}`);
    const results = await Promise.all(names.map((name, i) => add(name, `https://shop${i}.example`)));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const file = path.join(configHome, 'cms-admin', 'sites.json');
    expect(readProfiles(file).sites.map((s) => s.name).sort()).toEqual(names.sort());

    const same = await Promise.all([add('twin', 'https://first.example'), add('twin', 'https://second.example')]);
    expect(same.map((r) => r.code).sort()).toEqual([0, 2]);
    const told = same.find((r) => r.code === 2);
    expect(told?.stderr).toContain('A site profile "twin" exists already: pass --replace');
    const saved = readProfiles(file).sites.filter((s) => s.name === 'twin');
    expect(saved).toHaveLength(1);
    // The one kept is the one whose command said it saved it.
    const winner = same.findIndex((r) => r.code === 0);
    expect(saved[0]?.url).toBe(winner === 0 ? 'https://first.example' : 'https://second.example');
  });
});
