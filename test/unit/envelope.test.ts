import { describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/client/index.js';
import { closestNames, invoke, isUsageError, parseEnvelope } from '../../src/call/index.js';

// Every call below is invalid, so the envelope must reject it before any request: a client
// pointed at a closed port would surface as a network error if one were sent.
const client = new WordPressClient({ url: 'http://127.0.0.1:9', username: 'admin', appPassword: 'secret pass word' });
const context = { client };

async function rejected(envelope: unknown) {
  const outcome = await invoke(envelope, context);
  expect(outcome.ok).toBe(false);
  expect(isUsageError(outcome)).toBe(true);
  expect(client.stats.requests).toBe(0);
  if (outcome.ok) throw new Error('unreachable');
  return outcome.error;
}

describe('invocation envelope', () => {
  it('rejects what is not an object', async () => {
    for (const bad of [null, 42, 'get-cms-tags', [{ tool: 'get-cms-tags' }]]) {
      expect((await rejected(bad)).code).toBe('invalid_envelope');
    }
  });

  it('rejects members other than tool and params', async () => {
    const error = await rejected({ tool: 'get-cms-categories', parms: {} });
    expect(error.code).toBe('invalid_envelope');
    expect(error.message).toContain('parms');
  });

  it('names the closest tools for an unknown one', async () => {
    const error = await rejected({ tool: 'get-categories' });
    expect(error.code).toBe('unknown_tool');
    expect(error.hint).toContain('get-cms-categories');
  });

  it('rejects params that are not an object', async () => {
    expect((await rejected({ tool: 'get-cms-categories', params: [1] })).code).toBe('invalid_envelope');
  });

  it('rejects unknown params and names them', async () => {
    const error = await rejected({ tool: 'get-cms-categories', params: { page: 2 } });
    expect(error.code).toBe('invalid_params');
    expect(error.message).toContain('page');
  });

  it('refuses tools outside the session’s filter', async () => {
    const outcome = await invoke({ tool: 'get-cms-categories' }, context, { allow: [] });
    expect(outcome.ok || outcome.error.code).toBe('tool_not_allowed');
  });

  it('an allowlist of several tools refuses the others before any request', async () => {
    const outcome = await invoke({ tool: 'create-tag', params: { name: 'x' } }, context, {
      allow: ['get-cms-categories', 'get-cms-tags', 'list-users'],
    });
    expect(outcome.ok || outcome.error.code).toBe('tool_not_allowed');
  });

  it('parses JSON or says why not', () => {
    expect(parseEnvelope('{"tool":"x"}')).toEqual({ ok: true, value: { tool: 'x' } });
    const bad = parseEnvelope('{tool:');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.outcome).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
  });

  it('does not quote the input back in a JSON error (it may hold a password)', () => {
    const bad = parseEnvelope('{"tool":"update-user","params":{"id":2,"password": hunter2hunter2}}');
    expect(bad.ok).toBe(false);
    if (!bad.ok && !bad.outcome.ok) {
      expect(bad.outcome.error.message).not.toContain('hunter');
      expect(bad.outcome.error.message).toContain('not valid JSON');
    }
  });

  it('suggests near names only', () => {
    expect(closestNames('list-user', ['list-users', 'list-user-roles', 'create-tag'])).toEqual([
      'list-users',
      'list-user-roles',
    ]);
    expect(closestNames('zzzzzzzzzzzzzzzzzz', ['create-tag'])).toEqual([]);
  });
});

describe('runTool runs only a decided call (#58.5)', () => {
  it('a call that did not come through decideCall is a bug, thrown before any request; a resolved one must be decided first', async () => {
    const { findTool, resolveCall, runTool } = await import('../../src/call/index.js');
    const tool = findTool('delete-tag')!;
    const forged = { tool, params: { id: 1 }, context } as never;
    await expect(runTool(forged)).rejects.toThrow(/only a call decided by decideCall/);
    const resolved = await resolveCall({ tool: 'delete-tag', params: { id: 1 } }, context);
    expect(resolved.ok).toBe(true);
    if (resolved.ok) await expect(runTool(resolved.call as never)).rejects.toThrow(/only a call decided by decideCall/);
  });
});
