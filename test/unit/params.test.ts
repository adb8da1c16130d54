import { ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { toLangChainTool } from '../../src/adapters/langchain.js';
import { WordPressClient } from '../../src/client/index.js';
import { checkCall, findTool } from '../../src/call/index.js';

/** What the envelope (and so MCP, the tool shell and `cms-admin invoke`) makes of params. */
const resolve = (tool: string, params: Record<string, unknown>) => checkCall({ tool, params });
const paramsOf = (tool: string, params: Record<string, unknown>) => {
  const call = resolve(tool, params);
  if (!call.ok) throw new Error(`refused: ${call.error.message}`);
  return call.params;
};
const errorOf = (tool: string, params: Record<string, unknown>) => {
  const call = resolve(tool, params);
  if (call.ok) throw new Error(`accepted: ${JSON.stringify(call.params)}`);
  return call.error;
};

describe('null means "not given"', () => {
  it('null for an optional param is left out, on every tool that has one', () => {
    expect(paramsOf('update-category', { id: 3, name: null, parent: null })).toEqual({ id: 3 });
    expect(paramsOf('merge-categories', { source_ids: [2], target_id: 3, delete_sources: null, dry_run: null })).toEqual({
      source_ids: [2],
      target_id: 3,
    });
    expect(paramsOf('create-user', { username: 'u', email: 'u@example.com', password: 'x'.repeat(12), role: null, name: null, bio: null })).toEqual({
      username: 'u',
      email: 'u@example.com',
      password: 'x'.repeat(12),
    });
  });

  it('null for a required param is a clear error naming it', () => {
    const error = errorOf('update-category', { id: null });
    expect(error.code).toBe('invalid_params');
    expect(error.message).toContain('id: is required (null means "not given")');
    expect(errorOf('merge-categories', { source_ids: null, target_id: 3 }).message).toContain('source_ids: is required');
  });
});

describe('unknown keys', () => {
  it('are refused by name, prototype keys included', () => {
    const params = JSON.parse('{"id": 3, "constructor": {"x": 1}, "__proto__": {"polluted": true}}');
    const error = errorOf('update-category', params);
    expect(error.message).toContain('constructor');
    expect(error.message).toContain('__proto__');
  });
});

describe('what weaker models send', () => {
  it('"" for an optional enum is "not given"; an unknown value is refused with the choices', () => {
    expect(paramsOf('reset-user-password', { id: 4, delivery: '' })).toEqual({ id: 4 });
    const error = errorOf('reset-user-password', { id: 4, delivery: 'sms' });
    expect(error.message).toMatch(/delivery: .*"email"\|"link"/);
  });

  it('"" for an optional string keeps its meaning (update-tag: "" clears the description)', () => {
    expect(paramsOf('update-tag', { id: 4, description: '' })).toEqual({ id: 4, description: '' });
    expect(errorOf('update-category', { id: 4, name: '' }).message).toContain('name');
  });

  it('numbers written as strings are those numbers, in lists too; other strings are refused', () => {
    expect(paramsOf('update-category', { id: '12', parent: '0' })).toEqual({ id: 12, parent: 0 });
    expect(paramsOf('assign-tags-to-posts', { post_ids: ['1', 2], tag_ids: ['7'] })).toEqual({ post_ids: [1, 2], tag_ids: [7] });
    // post_ids take ids only (a term's id would take its slug: call/names.ts).
    expect(errorOf('assign-tags-to-posts', { post_ids: ['12abc'], tag_ids: [7] }).message).toMatch(/post_ids.0: .*expected number/);
    expect(errorOf('assign-tags-to-posts', { post_ids: ['1.5'], tag_ids: [7] }).message).toMatch(/post_ids.0: .*int/);
  });

  it('"true"/"false" for a boolean are those booleans; "yes" is refused', () => {
    expect(paramsOf('delete-tag', { id: 5, force: 'true' })).toEqual({ id: 5, force: true });
    expect(errorOf('delete-tag', { id: 5, force: 'yes' }).message).toMatch(/force: .*expected boolean/);
  });
});

describe('the LangChain tool reads params the same way', () => {
  const context = { client: new WordPressClient({ url: 'http://127.0.0.1:9', username: 'a', appPassword: 'b' }) };
  const tool = (strict: boolean) => toLangChainTool(findTool('update-category')!, context, { strict });

  it.each([false, true])('strict=%s: nulls pass LangChain’s schema check and reach the tool (here: an unreachable site)', async (strict) => {
    const out = JSON.parse(await tool(strict).invoke({ id: 3, name: null, parent: null } as never));
    expect(out.error.code).not.toBe('invalid_params');
    expect(out.error.message).toMatch(/127\.0\.0\.1|reach|connect/i);
  });

  it('a call the schema refuses gets our invalid_params error as its ToolMessage, not a parsing exception', async () => {
    const message = await tool(true).invoke({ type: 'tool_call', id: 'call_1', name: 'update-category', args: { id: 'x', name: 7 } } as never);
    expect(message).toBeInstanceOf(ToolMessage);
    const out = JSON.parse((message as ToolMessage).content as string);
    expect(out.error.code).toBe('invalid_params');
    expect(out.error.hint).toBe('update-category takes: id, name, parent, slug, description, meta, dry_run.');
    expect((message as ToolMessage).tool_call_id).toBe('call_1');
  });
});
