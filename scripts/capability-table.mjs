// Writes src/tools/users/capability-table.ts from the companion plugin's capabilities.json: the one
// table of capabilities (issue #58) the plugin reads in PHP and the toolkit imports. Run it after
// editing the JSON; test/unit/capability-table.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const JSON_PATH = path.join(root, 'plugin', 'cms-admin-companion', 'includes', 'capabilities.json');
export const TS_PATH = path.join(root, 'src', 'tools', 'users', 'capability-table.ts');

/** `items` as string literals, wrapped near 110 characters a line. */
function wrapped(items, indent) {
  const lines = [];
  let line = '';
  for (const item of items.map((i) => JSON.stringify(i))) {
    if (line && line.length + item.length + 2 > 110 - indent.length) {
      lines.push(line);
      line = '';
    }
    line += `${line ? ' ' : ''}${item},`;
  }
  if (line) lines.push(line);
  return lines.map((l) => indent + l).join('\n');
}

/** The TypeScript module for the table `json` (the file's text): one line a powerful capability. */
export function tableModule(json) {
  const table = JSON.parse(json);
  const powerful = Object.entries(table.powerful)
    .map(([cap, { group, words }]) => `    ${cap}: { group: ${JSON.stringify(group)}, words: ${JSON.stringify(words)} },`)
    .join('\n');
  const list = (name) => `  ${name}: [\n${wrapped(table[name], '    ')}\n  ],`;
  return `// Generated from plugin/cms-admin-companion/includes/capabilities.json by scripts/capability-table.mjs:
// edit the JSON, then run \`node scripts/capability-table.mjs\` (test/unit/capability-table.test.ts checks).

/** The one table of capabilities, shared with the companion plugin (capability-maps.php): see its \`about\`. */
export const CAPABILITY_TABLE = {
  about: ${JSON.stringify(table.about)},
  powerful: {
${powerful}
  },
${['harmless', 'never_beyond', 'wordpress', 'meta', 'network'].map(list).join('\n')}
} as const;
`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(TS_PATH, tableModule(readFileSync(JSON_PATH, 'utf8')));
  console.log(`wrote ${path.relative(root, TS_PATH)}`);
}
