/**
 * The load generator of `npm run bench:mcp` (mcp-load.ts): raw HTTP with keep-alive, so the
 * client costs little beside the server it measures (an SDK client would validate every 60 kB
 * tools/list answer against its schema); MCP sessions of protocol 2025-11-25.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { createServer } from 'node:net';
import { processCpuMs } from './bench-site.js';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const PROTOCOL = '2025-11-25';

export interface Session {
  headers: Record<string, string>;
}

export interface Answer {
  status: number;
  type: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One POST (a GET without a body), the whole answer read. Sent again once when a kept-alive
 * socket was closed under it (Node's server closes one idle for 5 s, which a slow start-up of
 * 32 sessions can leave): every request measured here is idempotent.
 */
export async function post(url: string, message?: unknown, session?: Session, authorization?: string): Promise<Answer> {
  try {
    return await send(url, message, session, authorization);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') throw err;
    return send(url, message, session, authorization);
  }
}

function send(url: string, message?: unknown, session?: Session, authorization?: string): Promise<Answer> {
  const body = message === undefined ? undefined : JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: body === undefined ? 'GET' : 'POST',
        agent,
        headers: {
          accept: 'application/json, text/event-stream',
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          ...(authorization ? { authorization } : {}),
          ...session?.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 300) return reject(new Error(`${url}: HTTP ${status} ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`));
          resolve({ status, type: String(res.headers['content-type'] ?? ''), headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** An initialized MCP session on `url`. */
export async function openSession(url: string): Promise<Session> {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const id = init.headers['mcp-session-id'];
  if (typeof id !== 'string') throw new Error(`no session from ${url}: ${init.body.toString('utf8').slice(0, 200)}`);
  const session = { headers: { 'mcp-session-id': id, 'mcp-protocol-version': PROTOCOL } };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  return session;
}

export interface Load {
  perSecond: number;
  answered: number;
  /** CPU of the serving process per answer, when its pid was given. */
  cpuMsPerRequest?: number;
}

/** Each job run again as soon as it is answered, all at once, for `seconds`; answers per second. */
export async function load(jobs: Array<() => Promise<unknown>>, seconds: number, pid?: number): Promise<Load> {
  await Promise.all(jobs.map((job) => job())); // warm: sockets open, caches filled
  const cpu = pid === undefined ? 0 : processCpuMs(pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  let answered = 0;
  await Promise.all(
    jobs.map(async (job) => {
      while (performance.now() < until) {
        await job();
        answered += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = pid === undefined ? undefined : (processCpuMs(pid) - cpu) / answered;
  return { perSecond: answered / elapsed, answered, ...(used === undefined ? {} : { cpuMsPerRequest: used }) };
}

/** A port free now (taken from the system, then let go). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A Node process of ours, resolved once it printed `ready` on stderr (or, without `ready`, once it exited). */
export function node(args: string[], env: NodeJS.ProcessEnv, ready?: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    child.stderr?.on('data', (d) => {
      said += d;
      if (ready?.test(said)) resolve(child);
    });
    child.on('exit', (code) => (ready ? reject(new Error(`${args.slice(0, 3).join(' ')} exited ${code}: ${said.slice(-500)}`)) : resolve(child)));
  });
}
