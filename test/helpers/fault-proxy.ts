import http from 'node:http';
import { LoopbackServer } from '../../src/evals/loopback.js';
import { type Answer, type Quirks, requestQuirks, responseQuirks } from './quirks.js';

export type { Quirks };

/**
 * An HTTP proxy on 127.0.0.1 between the client and the sandbox WordPress that injects faults
 * into chosen requests: drop the connection before forwarding, or after forwarding (WordPress
 * applied the write, the client never hears back), delay or hold forever, or answer an HTTP
 * error before or after forwarding. Requests are chosen by method, path, body and nth
 * occurrence, or by probability from a seeded RNG, so a failing run can be replayed.
 * It also plays the everyday quirks of real sites (redirects, PHP notices, stripped headers,
 * HTML pages, plain permalinks, a sub-path, a dropped Authorization header): see quirks.ts.
 */
export type Fault =
  | { kind: 'drop'; when: 'before' | 'after' }
  /** Wait, then forward (unless the client has given up by then). `Infinity`: never answer. */
  | { kind: 'delay'; ms: number }
  | { kind: 'status'; status: number; when: 'before' | 'after' }
  /**
   * Forward, then send WordPress's status and headers but only the first half of the body:
   * `declared` keeps the full Content-Length (the connection closes early), `shortened` says
   * the cut length (a complete response whose JSON is cut off).
   */
  | { kind: 'cut'; length: 'declared' | 'shortened' }
  /** Park the request, unanswered and not forwarded, until `release()`; after that, forward. */
  | { kind: 'hold' }
  /**
   * Forward, and once WordPress has answered, keep the answer back (the connection left open)
   * until the client gives up: a request applied but outlasting the client's timeout.
   */
  | { kind: 'stall' };

export interface FaultRule {
  method?: string;
  /** Tested against the request target as received, e.g. `/wp-json/wp/v2/categories?page=2`. */
  path?: RegExp;
  body?: RegExp;
  /** 1-based occurrences among the requests this rule matches. */
  nth?: number | readonly number[];
  /** Chance to fire on each match, drawn from the proxy's seeded RNG. */
  probability?: number;
  /** Fire at most this many times. */
  limit?: number;
  /** A fault, or a choice of one per firing (drawn from the seeded RNG). */
  fault: Fault | ((random: () => number) => Fault);
}

export interface ProxyEvent {
  seq: number;
  method: string;
  path: string;
  /** Label of the injected fault (see faultLabel), if any. */
  fault?: string;
}

export function faultLabel(fault: Fault): string {
  if (fault.kind === 'drop') return `drop-${fault.when}`;
  if (fault.kind === 'delay') return fault.ms === Number.POSITIVE_INFINITY ? 'hang' : 'delay';
  if (fault.kind === 'hold') return 'hold';
  if (fault.kind === 'stall') return 'stall';
  if (fault.kind === 'cut') return `cut-${fault.length}`;
  return `${fault.status}-${fault.when}`;
}

/** mulberry32: a tiny seeded PRNG (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'te', 'trailer'];

interface ActiveRule {
  rule: FaultRule;
  matched: number;
  fired: number;
}

export class FaultProxy {
  readonly events: ProxyEvent[] = [];
  url = '';
  readonly #target: URL;
  readonly #upstream = new http.Agent({ keepAlive: false });
  #rules: ActiveRule[] = [];
  #quirks: Quirks = {};
  #random: () => number;
  #server: LoopbackServer | undefined;
  #timers = new Set<NodeJS.Timeout>();
  /** Requests parked by a `hold` fault, and callers waiting for the first one. */
  #held: Array<{ forward: () => void; drop: () => void }> = [];
  #released = false;
  #holdWaiters: Array<() => void> = [];
  /** Path and headers after the request-side quirks, until forwarded. */
  #pending = new WeakMap<http.IncomingMessage, { path: string; headers: http.IncomingHttpHeaders }>();

  constructor(target: string, options: { seed?: number } = {}) {
    this.#target = new URL(target);
    this.#random = seededRandom(options.seed ?? 1);
  }

  async start(): Promise<this> {
    // Longer than any test: a keep-alive socket the proxy closes while the client reuses it
    // would be an ECONNRESET nobody injected.
    this.#server = await LoopbackServer.start((req, res) => this.#handle(req, res), { keepAliveTimeout: 120_000 });
    this.url = this.#server.origin;
    return this;
  }

  async stop(): Promise<void> {
    this.release();
    for (const timer of this.#timers) clearTimeout(timer);
    await this.#server?.stop();
    this.#upstream.destroy();
  }

  inject(rule: FaultRule): this {
    this.#rules.push({ rule, matched: 0, fired: 0 });
    return this;
  }

  /** Adds site quirks (see quirks.ts) on top of the ones already set. */
  quirk(quirks: Quirks): this {
    this.#quirks = { ...this.#quirks, ...quirks };
    return this;
  }

  /** Removes every rule and quirk (the event log stays); `hold` faults hold again. */
  clear(): this {
    this.#rules = [];
    this.#quirks = {};
    this.release();
    this.#released = false;
    return this;
  }

  /** Resolves once a `hold` fault has parked a request (at once if one is parked). */
  whenHeld(): Promise<void> {
    if (this.#held.length) return Promise.resolve();
    return new Promise((resolve) => this.#holdWaiters.push(resolve));
  }

  /** Forwards every parked request; later `hold` faults forward at once (until `clear()`). */
  release(): this {
    this.#released = true;
    const held = this.#held.splice(0);
    for (const { forward } of held) forward();
    return this;
  }

  /** Drops every parked request without forwarding it: WordPress never sees them. */
  discard(): this {
    for (const { drop } of this.#held.splice(0)) drop();
    return this;
  }

  reseed(seed: number): this {
    this.#random = seededRandom(seed);
    return this;
  }

  /** Requests seen (since `since`, an index into `events`) matching method and path. */
  count(method?: string, path?: RegExp, since = 0): number {
    return this.events.slice(since).filter((e) => (!method || e.method === method) && (!path || path.test(e.path)))
      .length;
  }

  /** Faults injected by label, e.g. `{ 'drop-after': 2, '503-before': 1 }`. */
  faults(since = 0): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { fault } of this.events.slice(since)) if (fault) counts[fault] = (counts[fault] ?? 0) + 1;
    return counts;
  }

  #choose(method: string, path: string, body: string): Fault | undefined {
    for (const active of this.#rules) {
      const { rule } = active;
      if (rule.method && rule.method !== method) continue;
      if (rule.path && !rule.path.test(path)) continue;
      if (rule.body && !rule.body.test(body)) continue;
      active.matched++;
      if (rule.limit !== undefined && active.fired >= rule.limit) continue;
      if (rule.nth !== undefined && !([] as number[]).concat(rule.nth).includes(active.matched)) continue;
      if (rule.probability !== undefined && !(this.#random() < rule.probability)) continue;
      active.fired++;
      return typeof rule.fault === 'function' ? rule.fault(this.#random) : rule.fault;
    }
    return undefined;
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const fault = this.#choose(method, path, body.toString('utf8'));
      this.events.push({ seq: this.events.length + 1, method, path, ...(fault && { fault: faultLabel(fault) }) });
      const quirked = requestQuirks(this.#quirks, { method, path, headers: req.headers });
      if ('answer' in quirked) return void send(res, quirked.answer);
      this.#pending.set(req, quirked);
      if (fault?.kind === 'drop' && fault.when === 'before') return void req.socket.destroy();
      if (fault?.kind === 'status' && fault.when === 'before') return void answerError(res, fault.status);
      if (fault?.kind === 'hold' && !this.#released) {
        this.#held.push({ forward: () => this.#forward(req, res, body, undefined), drop: () => req.socket.destroy() });
        for (const resolve of this.#holdWaiters.splice(0)) resolve();
        return;
      }
      if (fault?.kind === 'delay') {
        if (fault.ms === Number.POSITIVE_INFINITY) return; // held until the client gives up or stop()
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          if (!req.socket.destroyed) this.#forward(req, res, body, undefined);
        }, fault.ms);
        this.#timers.add(timer);
        return;
      }
      this.#forward(req, res, body, fault);
    });
  }

  #forward(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, fault: Fault | undefined): void {
    const quirked = this.#pending.get(req) ?? { path: req.url ?? '/', headers: req.headers };
    this.#pending.delete(req);
    const headers: http.OutgoingHttpHeaders = {
      ...quirked.headers,
      host: this.#target.host,
      'content-length': String(body.length),
    };
    for (const name of HOP_BY_HOP) delete headers[name];
    const upstream = http.request(
      {
        host: this.#target.hostname,
        port: this.#target.port,
        method: req.method,
        path: quirked.path,
        headers,
        agent: this.#upstream,
      },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          // Fully received by WordPress and answered: now lose or replace the answer.
          if (fault?.kind === 'drop') return void req.socket.destroy();
          if (fault?.kind === 'stall') return; // until the client gives up
          if (fault?.kind === 'status') return void answerError(res, fault.status);
          if (fault?.kind === 'cut') return void cut(res, answer, Buffer.concat(parts), fault.length);
          const urls = { proxy: this.url, target: this.#target.origin };
          const upstreamAnswer = {
            status: answer.statusCode ?? 502,
            headers: answer.headers,
            body: Buffer.concat(parts),
          };
          send(res, responseQuirks(this.#quirks, upstreamAnswer, urls));
        });
      },
    );
    upstream.on('error', () => answerError(res, 502));
    upstream.end(body);
  }
}

function send(res: http.ServerResponse, answer: Answer): void {
  const payload = Buffer.from(answer.body);
  const out: http.OutgoingHttpHeaders = { ...answer.headers, 'content-length': String(payload.length) };
  for (const name of HOP_BY_HOP) delete out[name];
  res.writeHead(answer.status, out).end(payload);
}

function cut(res: http.ServerResponse, answer: http.IncomingMessage, body: Buffer, length: 'declared' | 'shortened') {
  const half = body.subarray(0, Math.floor(body.length / 2));
  const out: http.OutgoingHttpHeaders = { ...answer.headers };
  for (const name of HOP_BY_HOP) delete out[name];
  out['content-length'] = String(length === 'declared' ? body.length : half.length);
  res.writeHead(answer.statusCode ?? 200, out);
  res.write(half);
  if (length === 'declared') res.socket?.destroy();
  else res.end();
}

function answerError(res: http.ServerResponse, status: number): void {
  if (res.headersSent || res.destroyed) return;
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ code: 'proxy_fault', message: `Injected HTTP ${status} (fault proxy).`, data: { status } }));
}
