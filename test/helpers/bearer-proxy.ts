import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy on 127.0.0.1 that adds `Authorization: Bearer <token>` to every request and streams
 * the answers back as they come (SSE), for clients that cannot send a token themselves (the
 * conformance suite has no option for one). Host and Origin naming the proxy are rewritten to
 * the server's; any other value (evil.example.com) passes unchanged, so the server's own
 * DNS-rebinding check answers it. A client that goes away takes its upstream request with it,
 * as if it had been connected directly.
 */
export async function bearerProxy(target: string, token: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  let port = 0;
  const own = (host: string | undefined) =>
    host !== undefined && [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host.toLowerCase());
  const server = http.createServer((req, res) => {
    const headers: http.OutgoingHttpHeaders = { ...req.headers, authorization: `Bearer ${token}` };
    if (own(req.headers.host)) headers.host = upstream.host;
    const origin = req.headers.origin;
    if (origin !== undefined && URL.canParse(origin) && own(new URL(origin).host)) headers.origin = upstream.origin;
    const out = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
