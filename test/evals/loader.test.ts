import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CaseFileError, loadCases, parseCase } from '../../src/evals/loader.js';

const VALID = `
id: sample
title: A sample case
category: single
turns:
  - user: How many categories are there?
    reference:
      - tool: get-cms-categories
      - answer: There are 42.
expect:
  no_writes: true
`;

/** The loader's message for `text` as file `sample.yaml`. */
function problem(text: string, file = 'sample.yaml'): string {
  try {
    parseCase(text, file);
  } catch (err) {
    expect(err).toBeInstanceOf(CaseFileError);
    return (err as Error).message;
  }
  throw new Error('the case was accepted');
}

describe('case loader', () => {
  it('accepts a minimal case and fills in the defaults', () => {
    expect(parseCase(VALID, 'sample.yaml')).toMatchObject({ id: 'sample', approvals: 'approve', max_steps: 8 });
  });

  it.each([
    ['YAML that does not parse', 'id: [sample', /^sample\.yaml: not valid YAML: /],
    [
      'an unquoted placeholder',
      VALID.replace('How many categories are there?', '{{fixture.a.id}}'),
      /^sample\.yaml: line 6: quote values that start with \{\{/,
    ],
    [
      'a missing field',
      VALID.replace('title: A sample case\n', ''),
      /^sample\.yaml: title: Invalid input: expected string, received undefined$/,
    ],
    ['an unknown field', `${VALID}\nnotes: hi\n`, /^sample\.yaml: \(top level\): Unrecognized key: "notes"$/],
    [
      'an unknown category',
      VALID.replace('category: single', 'category: easy'),
      /^sample\.yaml: category: Invalid option: expected one of "single"\|"multi-step"\|"ambiguity"\|"refusal"\|"injection"$/,
    ],
    [
      'an unknown tool',
      VALID.replace('tool: get-cms-categories', 'tool: get-categories'),
      /^sample\.yaml: turns\.0\.reference\.0: unknown tool "get-categories"$/,
    ],
    [
      'a reference without an answer',
      VALID.replace('      - answer: There are 42.\n', ''),
      /turns\.0\.reference\.0: the reference must end with an answer step/,
    ],
    [
      'an id other than the file name',
      VALID,
      /^other\.yaml: id "sample" must equal the file name "other"$/,
      'other.yaml',
    ],
    [
      'a placeholder of no fixture key',
      VALID.replace('are there?', 'are there in {{fixture.nope.id}}?'),
      /\{\{fixture\.nope\.id\}\}: the fixture has no key "nope"/,
    ],
    [
      'a malformed placeholder',
      VALID.replace('How many categories are there?', '"How many in {{lookup: category News}}?"'),
      /bad placeholder \{\{lookup: category News\}\}/,
    ],
    [
      'a state check with two selectors',
      `${VALID}  state:\n    - { categories: { name: A }, tags: { name: B } }\n`,
      /expect\.state\.0: name exactly one of categories, tags, users, posts/,
    ],
    ['an unknown approvals value', `${VALID}approvals: maybe\n`, /^sample\.yaml: approvals: /],
  ])('rejects %s with a message naming the file and the place', (_label, text, message, file = 'sample.yaml') => {
    expect(problem(text, file)).toMatch(message);
  });

  it('loadCases names the bad file in a directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eval-cases-'));
    await writeFile(join(dir, 'sample.yaml'), VALID);
    expect(await loadCases(dir)).toHaveLength(1);
    await writeFile(join(dir, 'broken.yaml'), VALID.replace('turns:', 'turnz:'));
    await expect(loadCases(dir)).rejects.toThrow(/^broken\.yaml: /);
  });

  it('loads the shipped cases', async () => {
    const cases = await loadCases();
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });
});
