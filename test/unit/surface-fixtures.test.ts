import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tools } from '../../src/call/index.js';
import { SURFACE_FIXTURES } from '../helpers/surface-fixtures.js';

/**
 * The surface property (test/reliability/surface-property*.test.ts) runs every write tool of the
 * registry on every surface: each needs a call to make, on fixtures of its own. A new write tool
 * fails here until test/helpers/surface-fixtures-*.ts gives it one.
 */
describe('the surface property has a call for every write tool', () => {
  const writes = tools.filter((tool) => !tool.annotations.readOnly).map((tool) => tool.name);

  it('every write tool of the registry has a fixture', () => {
    expect(writes.filter((name) => !SURFACE_FIXTURES[name])).toEqual([]);
    expect(writes.length).toBeGreaterThan(30);
  });

  it('every fixture is a write tool of the registry', () => {
    expect(Object.keys(SURFACE_FIXTURES).filter((name) => !writes.includes(name))).toEqual([]);
  });

  it('the network-only tools, and only they, are marked as such', () => {
    const network = tools.filter((tool) => tool.network).map((tool) => tool.name);
    expect(Object.entries(SURFACE_FIXTURES).filter(([, f]) => f.network).map(([name]) => name).sort()).toEqual(network.filter((n) => writes.includes(n)).sort());
  });
});

describe('the surface property runs every group of surfaces', () => {
  it('each group of SURFACE_GROUPS has a file that runs it (surface-property*.test.ts)', () => {
    const dir = path.join(import.meta.dirname, '..', 'reliability');
    const module = readFileSync(path.join(dir, 'surface-property.ts'), 'utf8');
    const groups = [...(module.match(/SURFACE_GROUPS = \{([\s\S]*?)\} as const/)?.[1] ?? '').matchAll(/^\s+([a-z]+):/gm)].map((m) => m[1]);
    expect(groups.length).toBeGreaterThan(1);
    const run = readdirSync(dir)
      .filter((file) => file.startsWith('surface-property') && file.endsWith('.test.ts'))
      .flatMap((file) => [...readFileSync(path.join(dir, file), 'utf8').matchAll(/describeSurfaceProperty\('([a-z]+)'\)/g)].map((m) => m[1]));
    expect(run.sort()).toEqual(groups.sort());
  });
});
