import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { defaultStorePath } from '../../src/undo/journal-path.js';

// Issue #60, finding 7: README placed the journal in "one file per site in
// ~/.local/state/cms-admin/changes/" while the CLI uses one change store, changes.db (#47). That
// folder now only holds the JSON Lines journals of before, imported once: a paragraph naming it
// says so.
const root = path.resolve(import.meta.dirname, '../..');
const files = ['README.md', 'AGENTS.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

it('every paragraph that names ~/.local/state/cms-admin/changes/ speaks of the old JSON Lines journals', () => {
  for (const file of files) {
    for (const paragraph of readFileSync(path.join(root, file), 'utf8').split(/\n\s*\n/)) {
      if (!paragraph.includes('cms-admin/changes/')) continue;
      expect(paragraph, `${file}: ${paragraph.slice(0, 300)}`).toMatch(/JSON Lines|\.jsonl/);
    }
  }
});

it("README's CMS_JOURNAL line and its Undo section name the store the CLI uses", () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  expect(defaultStorePath().endsWith(path.join('cms-admin', 'changes.db'))).toBe(true);
  expect(readme.split('\n').find((l) => l.startsWith('| `CMS_JOURNAL` |'))).toContain('~/.local/state/cms-admin/changes.db');
  const undo = readme.slice(readme.indexOf('### Undo'), readme.indexOf('## WordPress requirements'));
  expect(undo).toContain('~/.local/state/cms-admin/changes.db');
});
