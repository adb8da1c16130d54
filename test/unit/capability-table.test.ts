import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { JSON_PATH, TS_PATH, tableModule } from '../../scripts/capability-table.mjs';
import { CAPABILITY_TABLE } from '../../src/tools/users/capability-table.js';
import { isPowerful, powerWords } from '../../src/tools/users/capability-words.js';
import { isHarmless, isKnownCapability } from '../../src/tools/users/capability-maps.js';

/**
 * The one table of capabilities (#58, finding 3): the companion plugin reads capabilities.json
 * (capability-maps.php), the toolkit imports capability-table.ts, written from it by
 * scripts/capability-table.mjs. They cannot drift: the module must be exactly what the script writes.
 */
describe('the capability table', () => {
  it('is the same in the plugin and the toolkit', () => {
    const json = readFileSync(JSON_PATH, 'utf8');
    expect(readFileSync(TS_PATH, 'utf8'), 'run `node scripts/capability-table.mjs` after editing capabilities.json').toBe(tableModule(json));
    expect(JSON.parse(JSON.stringify(CAPABILITY_TABLE))).toEqual(JSON.parse(json));
  });

  it('covers the user levels above Author’s and the network’s capabilities, each in plain words', () => {
    for (const cap of ['level_3', 'level_10', 'create_sites', 'delete_sites', 'upgrade_network', 'setup_network', 'manage_network_users', 'manage_network']) {
      expect(isPowerful(cap), cap).toBe(true);
      expect(powerWords([cap]), cap).toMatch(new RegExp(`^[a-z][^()]+ .*\\(${cap}\\)$`));
    }
    for (const cap of ['level_0', 'level_1', 'level_2', 'read', 'edit_posts']) expect([isPowerful(cap), isHarmless(cap)], cap).toEqual([false, true]);
    expect(powerWords(['manage_network_users'])).toBe('edit and delete every account of the network (manage_network_users)');
  });

  it('every powerful, harmless and network capability is a known name; the lists hold no duplicates', () => {
    for (const list of [CAPABILITY_TABLE.wordpress, CAPABILITY_TABLE.meta, CAPABILITY_TABLE.network, CAPABILITY_TABLE.harmless])
      expect(new Set(list).size).toBe(list.length);
    for (const cap of [...Object.keys(CAPABILITY_TABLE.powerful), ...CAPABILITY_TABLE.harmless, ...CAPABILITY_TABLE.network]) expect(isKnownCapability(cap), cap).toBe(true);
    expect(isKnownCapability('shop_manager')).toBe(false);
  });

  it('names the user levels as one item, in the words of the highest', () => {
    const admin = ['manage_options', ...Array.from({ length: 11 }, (_, n) => `level_${n}`)];
    expect(powerWords(admin)).toBe('change every site setting (manage_options); pass old plugins’ administrator checks (user level 10) (level_3 to level_10)');
    expect(powerWords(['level_10', 'level_5'])).toBe('pass old plugins’ administrator checks (user level 10) (level_10, level_5)');
  });
});
