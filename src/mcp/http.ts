import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError } from '../config.js';
import { createMcpServer, type McpServerOptions } from './index.js';
import { SessionEventStore } from './http/event-store.js';
import { modernHttp } from './http/modern-http.js';
import { openStore, type ServerStore } from './store/index.js';
import type { WordPressAuthOptions } from './http/wordpress-oauth.js';
import { networkToolsFor, type ToolContext, type ToolFilter } from '../call/index.js';

export interface McpHttpOptions {
  /** Default 127.0.0.1. Another address needs `publicUrl` with https (a TLS proxy in front). */
  host?: string;
  /** Default 8765; 0 picks a free port. */
  port?: number;
  /** The bearer token every request must carry (static token mode, for scripts and local clients). */
  token?: string;
  /**
   * `--auth none`: no credentials at all, every request acts as the configured account. Only on
   * a loopback bind without `publicUrl` (local tools: the Inspector's UI, the conformance suite).
   */
  noAuth?: boolean;
  /** Without `token`: each person signs in on the site (OAuth with authorize-application.php) and acts as themselves. */
  wordpress?: WordPressAuthOptions & { contextFor(login: { username: string; appPassword: string }): ToolContext };
  /** The address clients use when a TLS reverse proxy sits in front: its origin is allowed too. */
  publicUrl?: string;
  /**
   * What 2026-07-28 approvals need between their two requests (sealing key, used states): the
   * embedded store by default, or PostgreSQL for several replicas (`--store`, store/index.ts).
   */
  store?: ServerStore;
  /** Largest request body accepted; default 1 MiB. */
  maxBodyBytes?: number;
  /** A session unused this long is closed (clients often leave without DELETE); default 30 min. */
  idleMs?: number;
}

export interface McpHttpServer {
  /** `http://host:port/mcp` */
  url: string;
  /** Sessions open now. */
  sessions(): number;
  close(): Promise<void>;
}

/** How long a client waits before it reconnects a dropped stream (SSE `retry:`). */
const RETRY_MS = 1000;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/**
 * The tools over MCP's Streamable HTTP transport at `/mcp`: one MCP server (the same
 * `createMcpServer` as stdio: filters, structured output, approvals by elicitation) per session,
 * every request authenticated with the bearer token, its Origin checked (DNS rebinding), bodies
 * bounded. Every session acts as the one configured WordPress account: see docs/remote-mcp.md.
 */
export async function serveMcpHttp(
  /** The configured account's context: token mode's sessions act as it (unused with `wordpress`). */
  context: ToolContext | undefined,
  filter: ToolFilter,
  serverOptions: McpServerOptions,
  options: McpHttpOptions,
): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.noAuth) {
    if (!LOOPBACK.test(host) || options.publicUrl !== undefined) {
      throw new ConfigError(
        `Refusing --auth none on ${options.publicUrl ?? host}: without sign-in anyone who reaches the server acts as the configured account. --auth none serves this machine only: bind 127.0.0.1 (the default) without --public-url, or use --auth wordpress or a token.`,
        'invalid_config',
      );
    }
    if (!context) throw new ConfigError('--auth none needs the configured account (CMS_USERNAME, CMS_APP_PASSWORD).', 'invalid_config');
  }
  if (!LOOPBACK.test(host) && !options.publicUrl?.startsWith('https://')) {
    throw new ConfigError(
      `Refusing to serve plain HTTP on ${host}: the bearer token would cross the network in clear text. Bind 127.0.0.1 (the default), or put a TLS reverse proxy in front and pass --public-url https://….`,
      'invalid_config',
    );
  }
  if (options.token === undefined && !options.wordpress && !options.noAuth)
    throw new Error('serveMcpHttp needs a token or wordpress sign-in.');
  if (options.token !== undefined && !context)
    throw new Error('Token mode needs the configured account (CMS_USERNAME, CMS_APP_PASSWORD).');
  if (options.token !== undefined && options.token.length < 16)
    throw new ConfigError(
      'The MCP bearer token (CMS_MCP_TOKEN or --token-file) must be at least 16 characters.',
      'invalid_config',
    );
  const expected = options.token === undefined ? undefined : digest(options.token);
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  /** The grant (person) each session belongs to: a session answers only its own person's token. */
  const owners = new Map<string, string>();
  let oauth: SignIn | undefined;
  const lastSeen = new Map<string, number>();
  const idleMs = options.idleMs ?? 30 * 60_000;
  // Sessions a client left without DELETE would otherwise hold their server forever.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, seen] of lastSeen) if (now - seen > idleMs) void sessions.get(id)?.close();
      oauth?.provider.sweep().catch((err: Error) => process.stderr.write(`cms-admin mcp: sweeping sign-in state: ${err.message}\n`));
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();
  let origins = new Set<string>();
  const store = options.store ?? (await openStore(undefined, options.wordpress?.stateDir));
  const modern = await modernHttp({
    store,
    maxBody,
    async sessionOf(owner) {
      const sessionContext = owner && oauth ? await oauth.contextOf(owner) : context;
      if (!sessionContext) return undefined;
      const sessionFilter =
        owner && filter.network === undefined ? { ...filter, network: await networkToolsFor(sessionContext.client) } : filter;
      return { context: sessionContext, filter: sessionFilter, options: { ...serverOptions, ...(owner && { principal: owner }) } };
    },
  });
  /** Host headers this server answers (DNS rebinding: a page on evil.example resolved to 127.0.0.1 sends Host: evil.example). */
  let hosts = new Set<string>();

  const http: HttpServer = createServer((req, res) => {
    const asked = (req.headers.host ?? '').toLowerCase();
    if (!hosts.has(asked)) {
      return send(res, 421, {
        error: `this server does not answer for host "${asked.slice(0, 100)}": use ${[...hosts][0]}`,
      });
    }
    if (oauth) return oauth.app(req, res);
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
      process.stderr.write(`cms-admin mcp: ${(err as Error).message}\n`);
    });
  });

  function originAllowed(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (origin === undefined || origins.has(origin)) return true;
    send(res, 403, { error: `origin ${origin} not allowed` });
    return false;
  }

  /** `owner`: the grant of a signed-in person (its token already checked), or undefined in token mode. */
  async function handle(req: IncomingMessage, res: ServerResponse, owner?: string): Promise<void> {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp')
      return send(res, 404, { error: 'not found: use /mcp' });
    if (!originAllowed(req, res)) return;
    if (expected && !authorized(req.headers.authorization, expected)) {
      // RFC 6750 §3.1: a request without credentials gets no error code; a wrong token does.
      const error = req.headers.authorization === undefined ? '' : ', error="invalid_token"';
      res.setHeader('WWW-Authenticate', `Bearer realm="cms-admin"${error}`);
      return send(res, 401, { error: 'a valid bearer token is required (Authorization: Bearer …)' });
    }
    const body = req.method === 'POST' ? await readJson(req, maxBody) : undefined;
    if (body instanceof HttpProblem) return send(res, body.status, { error: body.message });
    const id = req.headers['mcp-session-id'];
    // 2026-07-28 (stateless, no session): the SDK's handler serves it; 2025 requests go on below.
    if (req.method === 'POST' && id === undefined && (await modern.isModern(req, body)))
      return modern.serve(req, res, body, owner);
    const existing = typeof id === 'string' && owners.get(id) === owner ? sessions.get(id) : undefined;
    if (existing) {
      lastSeen.set(id as string, Date.now());
      return existing.handleRequest(req, res, body);
    }
    if (typeof id === 'string') return send(res, 404, { error: 'unknown or closed session: initialize again' });
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return send(res, 400, { error: 'no session: send an initialize request first' });
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Resumable streams (issue #37): every event has an id, a POST stream opens with a priming
      // event and `retry:`, and a client that lost the connection resumes with Last-Event-ID
      // (the call is not sent, nor run, again). The store lives and dies with the session.
      eventStore: new SessionEventStore(),
      retryInterval: RETRY_MS,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
        owners.set(sessionId, owner as string);
        lastSeen.set(sessionId, Date.now());
      },
    });
    transport.onclose = () => {
      if (!transport.sessionId) return;
      sessions.delete(transport.sessionId);
      owners.delete(transport.sessionId);
      lastSeen.delete(transport.sessionId);
    };
    const sessionContext = owner && oauth ? await oauth.contextOf(owner) : context;
    if (!sessionContext) return send(res, 401, { error: 'the sign-in was revoked: sign in again' });
    // Signed in: the site is asked per session (no site context at start), so a super admin
    // signed in to a multisite network gets the network tools as the token mode does, and a site
    // administrator of the network the single-site list (docs/multisite.md).
    const sessionFilter =
      owner && filter.network === undefined ? { ...filter, network: await networkToolsFor(sessionContext.client) } : filter;
    await createMcpServer(sessionContext, sessionFilter, serverOptions).connect(transport);
    await transport.handleRequest(req, res, body);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 8765, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  origins = new Set([`http://${shownHost}:${port}`, `http://localhost:${port}`, `http://127.0.0.1:${port}`]);
  if (options.publicUrl) origins.add(new URL(options.publicUrl).origin);
  hosts = new Set([...origins].map((origin) => new URL(origin).host.toLowerCase()));
  // A proxy may pass the address it connects to rather than the public host.
  hosts.add(`${shownHost}:${port}`.toLowerCase());
  const base = new URL(options.publicUrl ?? `http://${shownHost}:${port}`);
  if (options.wordpress) {
    const { signIn } = await import('./http/sign-in.js');
    oauth = await signIn(options.wordpress, base, new URL('/mcp', base), {
      originAllowed,
      handle,
      grantEnded(grantId) {
        for (const [id, grant] of owners) if (grant === grantId) void sessions.get(id)?.close();
      },
    }, store);
  }
  return {
    url: `http://${shownHost}:${port}/mcp`,
    sessions: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await modern.close();
      await store.close();
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

interface SignIn {
  app: (req: IncomingMessage, res: ServerResponse) => void;
  provider: { sweep(): Promise<void> };
  contextOf(grantId: string): Promise<ToolContext | undefined>;
}

class HttpProblem {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compared as digests, in constant time: the token's length and content do not leak through timing. */
function authorized(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1] as string), expected);
}

/** The body as JSON; past `max` bytes it stops reading (the answer closes the connection). */
function readJson(req: IncomingMessage, max: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.pause();
        resolve(new HttpProblem(413, `request body over ${max} bytes`));
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > max) return;
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(new HttpProblem(400, 'the body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  // Answered without reading the body: the connection cannot carry another request.
  const close = status === 413 || status === 421 ? { connection: 'close' } : {};
  res.writeHead(status, { 'content-type': 'application/json', ...close }).end(JSON.stringify(body));
}
