import { describe, expect, it } from 'vitest';
import { fleetTools } from '../../src/call/index.js';
import { modelParameters } from '../../src/adapters/json-schema.js';
import { tools } from '../../src/registry/index.js';
import { parseParams } from '../../src/tools/params.js';

/** #52.12: a several-site session's `site` takes "a,b" and ["a","b"] alike. */
describe('fleet site param', () => {
  const [createTag] = fleetTools(tools.filter((t) => t.name === 'create-tag'));
  it('a JSON list of names is the comma-separated names; one name and "a,b" as before', () => {
    for (const site of [['one', 'two'], 'one,two']) {
      const parsed = parseParams(createTag!, { name: 'News', site });
      expect(parsed.success).toBe(true);
      expect((parsed.data as { site: string }).site).toBe('one,two');
    }
    expect((parseParams(createTag!, { name: 'News', site: ['one'] }).data as { site: string }).site).toBe('one');
  });
  it('an empty list or a list of non-strings is still refused; other string params take no list', () => {
    expect(parseParams(createTag!, { name: 'News', site: [] }).success).toBe(false);
    expect(parseParams(createTag!, { name: 'News', site: [1, 2] }).success).toBe(false);
    expect(parseParams(createTag!, { name: ['a', 'b'], site: 'one' }).success).toBe(false);
  });
  it('the schema the model sees is unchanged: a string', () => {
    expect(JSON.stringify(modelParameters(createTag!, {}))).toContain('"site":{"type":"string"}');
  });
});
