import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ToolContext, ToolFilter } from '../../call/index.js';
import type { ModernServerOptions } from '../modern.js';
import type { ServerStore } from '../store/index.js';

export interface ModernSession {
  context: ToolContext;
  filter: ToolFilter;
  options: ModernServerOptions;
}

export interface ModernHttp {
  /** A POST without a session whose body claims 2026-07-28 (the SDK's `isLegacyRequest`, negated). */
  isModern(req: IncomingMessage, body: unknown): Promise<boolean>;
  /** Serves it with the SDK's `createMcpHandler` (modern only), as the signed-in person `owner`. */
  serve(req: IncomingMessage, res: ServerResponse, body: unknown, owner: string | undefined): Promise<void>;
  close(): Promise<void>;
}

/**
 * The 2026-07-28 leg of `/mcp` (docs/remote-mcp.md): our server has already checked Host,
 * Origin, the bearer token or the person's grant, and read the body within its limit; the SDK
 * classifies the request, checks the `Mcp-Method`/`Mcp-Name` headers and the `_meta` envelope,
 * and serves it from a fresh server per request (`modern.ts`).
 */
export async function modernHttp(setup: {
  store: ServerStore;
  maxBody: number;
  sessionOf(owner: string | undefined): Promise<ModernSession | undefined>;
}): Promise<ModernHttp> {
  const [{ createMcpHandler, isLegacyRequest }, { createModernServer, modernServing }] = await Promise.all([
    import('@modelcontextprotocol/server'),
    import('../modern.js'),
  ]);
  const serving = modernServing({ key: await setup.store.sealingKey(), used: setup.store.used });
  const handler = createMcpHandler(
    async ({ authInfo }) => {
      const session = authInfo?.extra?.session as ModernSession;
      // enable-toolset's list_changed goes to the listen streams this handler holds (a fresh
      // server serves each request, so its own notification would reach none). The bus has no
      // owner per stream: another person's open stream hears it too, re-lists, and finds its own
      // list unchanged.
      const onToolsChanged = () => handler.notify.toolsChanged();
      return createModernServer(session.context, session.filter, { ...session.options, onToolsChanged }, serving);
    },
    { legacy: 'reject', maxRequestBodySize: setup.maxBody },
  );
  return {
    async isModern(req, body) {
      return !(await isLegacyRequest(webRequest(req, body), body, { maxRequestBodySize: setup.maxBody }));
    },
    async serve(req, res, body, owner) {
      const session = await setup.sessionOf(owner);
      if (!session) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'the sign-in was revoked: sign in again' }));
        return;
      }
      const response = await handler.fetch(webRequest(req, body), {
        parsedBody: body,
        authInfo: { token: '', clientId: owner ?? 'token', scopes: [], extra: { session } },
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        headers[key] = value;
      });
      res.writeHead(response.status, headers);
      if (!response.body) return void res.end();
      const stream = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
      // A client that goes away closes its response: the SDK cancels the call (2026-07-28 cancellation).
      res.on('close', () => stream.destroy());
      stream.pipe(res);
    },
    close: () => handler.close(),
  };
}

/** The request as the web's Request the SDK reads (the body already read and parsed by our server). */
function webRequest(req: IncomingMessage, body: unknown): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || key.startsWith(':')) continue;
    if (key === 'content-length' || key === 'transfer-encoding' || key === 'connection') continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(key, one);
  }
  const host = req.headers.host ?? 'localhost';
  return new Request(new URL(req.url ?? '/mcp', `http://${host}`), {
    method: req.method,
    headers,
    ...(req.method === 'POST' && { body: JSON.stringify(body) }),
  });
}
