import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface EventLimits {
  /** Events kept per session; default 1,000. */
  maxEvents?: number;
  /** Bytes of JSON kept per session; default 4 MiB (an answer is at most the answer budget). */
  maxBytes?: number;
  /** An event older than this is dropped; default 10 min (a client reconnects within seconds). */
  maxAgeMs?: number;
}

interface Stored {
  streamId: string;
  seq: number;
  message: JSONRPCMessage;
  bytes: number;
  at: number;
}

/**
 * What a session's SSE streams sent, so a client whose connection dropped reconnects with
 * `Last-Event-ID` and gets the rest (the answer of a long call, a pending elicitation) instead
 * of calling again: the call ran once. One store per session, dropped with it; bounded by
 * count, bytes and age, oldest first. An event id is `<stream>_<seq>`, so the stream is known
 * even when the event itself was dropped (the replay then sends what is left after it).
 */
export class SessionEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private seq = 0;
  private bytes = 0;
  private readonly limits: Required<EventLimits>;

  constructor(limits: EventLimits = {}) {
    this.limits = { maxEvents: 1000, maxBytes: 4 * 1024 * 1024, maxAgeMs: 10 * 60_000, ...limits };
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const bytes = bytesOf(message);
    const stored = { streamId, seq: ++this.seq, message, bytes, at: Date.now() };
    this.events.push(stored);
    this.bytes += bytes;
    this.prune();
    return `${streamId}_${stored.seq}`;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return parse(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = parse(lastEventId);
    if (!last) throw new Error('not an event id of this server');
    this.prune();
    for (const event of [...this.events]) {
      // The priming event ({}) carries no message: nothing to send again.
      if (event.streamId !== last.streamId || event.seq <= last.seq || Object.keys(event.message).length === 0) continue;
      await send(`${event.streamId}_${event.seq}`, event.message);
    }
    return last.streamId;
  }

  /** Events kept now (for tests). */
  size(): { events: number; bytes: number } {
    return { events: this.events.length, bytes: this.bytes };
  }

  private prune(): void {
    const oldest = Date.now() - this.limits.maxAgeMs;
    while (
      this.events.length > 0 &&
      (this.events.length > this.limits.maxEvents ||
        this.bytes > this.limits.maxBytes ||
        (this.events[0] as Stored).at < oldest)
    ) {
      this.bytes -= (this.events.shift() as Stored).bytes;
    }
  }
}

/** `<stream>_<seq>`: the SDK's stream ids are UUIDs (no `_`), "_GET_stream" has them, so split at the last. */
function parse(eventId: string): { streamId: string; seq: number } | undefined {
  const at = eventId.lastIndexOf('_');
  const seq = Number(eventId.slice(at + 1));
  if (at <= 0 || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  return { streamId: eventId.slice(0, at), seq };
}

/** Tools lists measured: a selection's list is one array, kept (mcp/tool-list.ts). */
const listBytes = new WeakMap<object, number>();

/**
 * A message's size as JSON. A tools/list answer is measured by its list, once per list: writing
 * the answer already serialises its 30–60 kB (the SDK's SSE event), and a second serialisation
 * per request here was a quarter of the server's CPU under load (#61).
 */
function bytesOf(message: JSONRPCMessage): number {
  const tools = (message as { result?: { tools?: unknown } }).result?.tools;
  if (!Array.isArray(tools)) return JSON.stringify(message).length;
  let bytes = listBytes.get(tools);
  if (bytes === undefined) {
    bytes = JSON.stringify(tools).length;
    listBytes.set(tools, bytes);
  }
  // The envelope around the list: {"jsonrpc":"2.0","id":…,"result":{"tools":…}}, and any _meta.
  const { tools: _list, ...rest } = (message as { result: Record<string, unknown> }).result;
  return bytes + JSON.stringify({ ...message, result: rest }).length + 10;
}

