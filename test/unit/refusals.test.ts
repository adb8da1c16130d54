import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WordPressError } from '../../src/client/index.js';
import { toErrorPayload } from '../../src/tools/error-payload.js';
import { pluginCodeOf, REFUSALS, type RefusalCode } from '../../src/tools/refusals.js';
import { documentedCodes } from '../helpers/error-codes.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const read = (dir: string, ext: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));

/** #52.10: a refusal the review says and the plugin says again is one code and one hint on both paths. */
describe('refusals said by a review and by the companion plugin', () => {
  const plugin = read('plugin', '.php').join('\n');
  const tools = read('src/tools', '.ts').join('\n');

  for (const [code, hint] of Object.entries(REFUSALS)) {
    const theirs = pluginCodeOf(code as RefusalCode);
    it(`${code}: documented, the plugin's ${theirs} answers as ${code} with the review's hint`, () => {
      expect(documentedCodes().map((d) => d.code)).toContain(code);
      expect(documentedCodes().map((d) => d.code)).not.toContain(theirs);
      expect(plugin).toContain(`'${theirs}'`);
      const payload = toErrorPayload(new WordPressError({ status: 409, code: theirs, message: 'Refused by WordPress.' }));
      expect(payload).toEqual({ code, message: 'Refused by WordPress. Nothing was changed.', hint });
      // No review spells the refusal with a hint of its own.
      expect(tools).not.toMatch(new RegExp(`new ToolError\\(\\s*'${code}'`));
    });
  }
});
