import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, expect, it, vi } from 'vitest';
import { SessionEventStore } from '../../src/mcp/http/event-store.js';

// The per-session store of resumable MCP streams (issue #37): what a reconnecting client gets,
// and its bounds (count, bytes, age) so a session cannot grow the server's memory without end.
const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { n } });

async function replay(store: SessionEventStore, after: string) {
  const sent: Array<{ id: string; message: JSONRPCMessage }> = [];
  const stream = await store.replayEventsAfter(after, { send: async (id, message) => void sent.push({ id, message }) });
  return { stream, sent };
}

afterEach(() => {
  vi.useRealTimers();
});

it('replays only what came after the given event, on that stream, without the priming event', async () => {
  const store = new SessionEventStore();
  const priming = await store.storeEvent('a', {} as JSONRPCMessage);
  const first = await store.storeEvent('a', note(1));
  await store.storeEvent('b', note(99));
  const second = await store.storeEvent('a', note(2));
  expect(await store.getStreamIdForEventId(first)).toBe('a');
  expect(await store.getStreamIdForEventId('_GET_stream_4')).toBe('_GET_stream');
  expect(await store.getStreamIdForEventId('nonsense')).toBeUndefined();
  const { stream, sent } = await replay(store, priming);
  expect(stream).toBe('a');
  expect(sent).toEqual([
    { id: first, message: note(1) },
    { id: second, message: note(2) },
  ]);
  expect((await replay(store, second)).sent).toEqual([]);
  await expect(replay(store, 'nonsense')).rejects.toThrow();
});

it('keeps at most maxEvents and maxBytes, dropping the oldest; a dropped cursor still replays what is left', async () => {
  const store = new SessionEventStore({ maxEvents: 3 });
  const ids: string[] = [];
  for (let n = 1; n <= 5; n++) ids.push(await store.storeEvent('a', note(n)));
  expect(store.size().events).toBe(3);
  expect((await replay(store, ids[0] as string)).sent.map((e) => e.message)).toEqual([note(3), note(4), note(5)]);

  const small = new SessionEventStore({ maxBytes: 3 * JSON.stringify(note(1)).length });
  for (let n = 1; n <= 5; n++) await small.storeEvent('a', note(n));
  expect(small.size()).toEqual({ events: 3, bytes: 3 * JSON.stringify(note(1)).length });
});

it('drops events older than maxAgeMs', async () => {
  vi.useFakeTimers();
  const store = new SessionEventStore({ maxAgeMs: 60_000 });
  const old = await store.storeEvent('a', note(1));
  vi.advanceTimersByTime(61_000);
  await store.storeEvent('a', note(2));
  expect(store.size().events).toBe(1);
  expect((await replay(store, old)).sent.map((e) => e.message)).toEqual([note(2)]);
});

it('counts a tools/list answer by its size as JSON, its list measured once (#61)', async () => {
  const store = new SessionEventStore();
  const tools = Array.from({ length: 30 }, (_, i) => ({ name: `tool-${i}`, description: 'x'.repeat(200), inputSchema: { type: 'object' } }));
  const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { tools } }) as JSONRPCMessage;
  for (const id of [1, 22, 333]) await store.storeEvent('a', answer(id));
  const exact = [1, 22, 333].reduce((sum, id) => sum + JSON.stringify(answer(id)).length, 0);
  expect(Math.abs(store.size().bytes - exact)).toBeLessThanOrEqual(3 * 16);
});
