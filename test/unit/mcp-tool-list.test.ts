import { describe, expect, it } from 'vitest';
import { type AnyToolDefinition, tools, ToolsetSession } from '../../src/call/index.js';
import { createContext } from '../../src/config.js';
import { toolHandlers } from '../../src/mcp/tool-handlers.js';

/**
 * MCP's tools/list is built once per selection and served from memory (#61): building it turns
 * every listed tool's zod schema into JSON schema (4–12 ms of CPU a list, paid by every request
 * before). Counted here by reads of each tool's schema, which only a build makes; no request is
 * sent (the site is never asked for a list).
 */
const context = createContext({ url: 'http://127.0.0.1:9', username: 'nobody', appPassword: 'aaaa bbbb cccc dddd eeee ffff' });

/** The registry's tools, each counting the reads of its schema. */
function countedTools() {
  const reads = new Map<string, number>();
  const counted = tools.map(
    (tool) =>
      new Proxy(tool, {
        get(target, prop, receiver) {
          if (prop === 'schema') reads.set(target.name, (reads.get(target.name) ?? 0) + 1);
          return Reflect.get(target, prop, receiver);
        },
      }) as AnyToolDefinition,
  );
  const total = () => [...reads.values()].reduce((a, b) => a + b, 0);
  return { counted, reads, total };
}

const names = (list: Array<{ name: string }>) => list.map((t) => t.name);

describe('MCP tools/list', () => {
  it('builds each selection once: later lists, and other sessions with the same toolsets, read no schema again', () => {
    const { counted, reads, total } = countedTools();
    const session = () => new ToolsetSession(counted, { toolsets: ['taxonomy'] });
    const handlers = toolHandlers(context, {}, { toolsets: session() });
    const first = handlers.list();
    const built = total();
    expect(built).toBeGreaterThan(0);
    expect(reads.get('get-cms-tags')).toBeGreaterThan(0);
    expect(reads.has('list-users')).toBe(false);
    for (let i = 0; i < 5; i++) expect(handlers.list()).toBe(first);
    // A stateless 2026-07-28 server makes handlers per request: the same list, still not rebuilt.
    expect(toolHandlers(context, {}, { toolsets: session() }).list()).toBe(first);
    expect(total()).toBe(built);
  });

  it('enable-toolset makes a new selection: the new list holds its tools, built once, the others not built again', async () => {
    const { counted, reads, total } = countedTools();
    let changed = 0;
    const handlers = toolHandlers(context, {}, { toolsets: new ToolsetSession(counted, { toolsets: ['taxonomy'] }), onToolsChanged: () => void changed++ });
    const before = handlers.list();
    const tagsRead = reads.get('get-cms-tags');
    expect(names(before)).not.toContain('list-users');
    const result = await handlers.call('enable-toolset', { toolset: 'users' }, async () => ({ approved: false, reason: 'no' }));
    expect(result.isError).toBe(false);
    expect(changed).toBe(1);
    const after = handlers.list();
    expect(after).not.toBe(before);
    expect(names(after)).toEqual(expect.arrayContaining(['get-cms-tags', 'list-users']));
    expect(after.find((t) => t.name === 'enable-toolset')?.description).not.toContain('users (');
    expect(reads.get('list-users')).toBeGreaterThan(0);
    expect(reads.get('get-cms-tags')).toBe(tagsRead);
    const built = total();
    expect(handlers.list()).toBe(after);
    expect(total()).toBe(built);
  });

  it('lists the same tools, schemas and annotations whether built or served from memory', () => {
    const fresh = (strict: boolean) => {
      const { counted } = countedTools();
      return toolHandlers(context, {}, { strict, toolsets: new ToolsetSession(counted, {}) }).list();
    };
    const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    for (const strict of [false, true]) {
      const built = fresh(strict);
      const handlers = toolHandlers(context, {}, { strict });
      handlers.list();
      expect(json(handlers.list())).toEqual(json(built));
      const tags = built.find((t) => t.name === 'delete-tag')!;
      expect(tags.inputSchema.type).toBe('object');
      expect(tags.annotations.destructiveHint).toBe(true);
      expect(tags.outputSchema?.anyOf).toHaveLength(2);
    }
  });
});
