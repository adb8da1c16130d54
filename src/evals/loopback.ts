import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP server on 127.0.0.1 with a port the OS chooses: the one start/stop shared by the
 * scripted model servers (eval runs, agent tests) and the test proxies, so none of them can
 * collide with a port in use, and stop() never waits on a client's idle keep-alive socket.
 */
export class LoopbackServer {
  readonly #server: http.Server;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string;

  private constructor(server: http.Server) {
    this.#server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  static async start(
    handler: http.RequestListener,
    options: { keepAliveTimeout?: number } = {},
  ): Promise<LoopbackServer> {
    const server = http.createServer(handler);
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new LoopbackServer(server);
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** The whole request body as text. */
export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
