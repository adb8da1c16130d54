import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DRY_RUN, defineTool } from '../../src/tools/define-tool.js';
import { tools } from '../../src/registry/index.js';

describe('defineTool: schemas built when first read (cms-admin invoke builds one, not 35)', () => {
  it('builds a schema given as a function on first read, once, with dry_run for a write tool', () => {
    let builds = 0;
    const tool = defineTool({
      name: 'lazy-write',
      toolkit: 'taxonomy',
      description: 'x',
      annotations: { readOnly: false, destructive: false, idempotent: true },
      schema: () => {
        builds++;
        return z.strictObject({ id: z.number().describe('Id') });
      },
      execute: async () => null,
    });
    expect(builds).toBe(0);
    expect(Object.keys(tool.schema.shape)).toEqual(['id', DRY_RUN]);
    expect(tool.schema).toBe(tool.schema);
    expect({ ...tool }.schema).toBe(tool.schema);
    expect(builds).toBe(1);
  });

  it('still takes a schema object, and leaves a read-only tool without dry_run', () => {
    const schema = z.strictObject({ q: z.string().describe('Q') });
    const tool = defineTool({
      name: 'eager-read',
      toolkit: 'taxonomy',
      description: 'x',
      annotations: { readOnly: true, destructive: false, idempotent: true },
      schema,
      execute: async () => null,
    });
    expect(tool.schema).toBe(schema);
  });

  it('every registry tool answers its schema, the same object on every read', () => {
    for (const tool of tools) {
      expect(tool.schema, tool.name).toBeInstanceOf(z.ZodObject);
      expect(tool.schema, tool.name).toBe(tool.schema);
    }
  });
});
