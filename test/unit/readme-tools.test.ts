import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { tools } from '../../src/call/index.js';

// README's count and table of the tools follow the registry (#28: it said 33 after undo made 35).
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

it('README says how many tools there are', () => {
  expect(/\*\*(\d+) tools\*\*/.exec(readme)?.[1]).toBe(String(tools.length));
});

it("README's tool table names every tool once, and only tools", () => {
  const table = readme.slice(readme.indexOf('## The tools'), readme.indexOf('The term tools take'));
  const named = [...table.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map((m) => m[1]);
  expect([...named].sort()).toEqual(tools.map((t) => t.name).sort());
});
