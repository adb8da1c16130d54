import { constants } from 'node:os';
import { AxiosError } from 'axios';
import { describe, expect, it } from 'vitest';
import { DOC, documentedCodes, pluginCodes, sameCode, sourceCodes } from '../helpers/error-codes.js';

/**
 * docs/error-handling.md promises every code a tool can answer with. This reads the codes from
 * the source (`new ToolError('…'`, every `code: …` of a WordPressError or error payload, the
 * companion plugin's own `WP_Error`s that pass through) and from the doc's table, so neither
 * can drift: add a code to the table in the same commit that adds it to the code.
 */
const found = [...sourceCodes(), ...pluginCodes()];
const documented = documentedCodes();

/** Codes that are not ours: WordPress's (`rest_…`) and the network's (Node's errno, axios's). */
function isExternal(code: string): boolean {
  if (/^rest_[a-z_]+$/.test(code)) return true;
  return /^E[A-Z_]+$/.test(code) && (code in constants.errno || (AxiosError as unknown as Record<string, unknown>)[code] === code);
}

describe(DOC, () => {
  it('finds the codes it checks (the scanner still understands the source)', () => {
    const codes = found.map((f) => f.code);
    for (const expected of ['term_exists', 'invalid_params', 'authentication_failed', 'http_*', '*_not_found']) {
      expect(codes).toContain(expected);
    }
    expect(documented.length).toBeGreaterThan(20);
  });

  it('lists every code the tools can answer with', () => {
    const missing = new Map<string, string[]>();
    for (const { code, where } of found) {
      if (documented.some((d) => sameCode(d.code, code))) continue;
      missing.set(code, [...(missing.get(code) ?? []), where]);
    }
    const advice = [...missing].map(
      ([code, where]) =>
        `\`${code}\` (returned at ${where.join(', ')}): add it to the codes column of the row of its kind in ${DOC}'s table, with what it means in a few words`,
    );
    expect(advice, `${DOC} is missing codes:\n${advice.join('\n')}\n`).toEqual([]);
  });

  it('lists no code that nothing returns', () => {
    const stale = documented.filter(
      (d) => !isExternal(d.code) && !found.some((f) => sameCode(d.code, f.code)),
    );
    const advice = stale.map(
      (d) =>
        `\`${d.code}\` (row "${d.kind}"): nothing in src/ or plugin/ returns it — remove it from ${DOC}, or fix its spelling to the code the source uses`,
    );
    expect(advice, `${DOC} lists codes that do not exist:\n${advice.join('\n')}\n`).toEqual([]);
  });

  it('names WordPress and network codes only as examples of theirs', () => {
    const external = documented.filter((d) => isExternal(d.code) && !found.some((f) => sameCode(d.code, f.code)));
    for (const d of external) expect(d.kind, `\`${d.code}\` belongs in the WordPress-or-network row`).toMatch(/WordPress or the network/);
  });
});
