/**
 * A loopback proxy in front of an emulator that refuses the POST of chosen scopes with a 422
 * `{"error": "…"}` body (a refusal the emulator itself never gives) and forwards everything
 * else unchanged, so one run sees both a refused scope and applied ones.
 */
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RefusingProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts the proxy; POSTs whose body's `scope` is in `refused` get 422 `{error: reason(scope)}`. */
export async function startRefusingProxy(target: string, refused: ReadonlySet<string>, reason: (scope: string) => string): Promise<RefusingProxy> {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const scope = incoming.method === 'POST' ? scopeOf(body) : undefined;
      if (scope !== undefined && refused.has(scope)) {
        outgoing.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: reason(scope) }));
        return;
      }
      pass(upstream, incoming, body, outgoing);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function scopeOf(body: Buffer): string | undefined {
  try {
    const scope = (JSON.parse(body.toString('utf8')) as { scope?: unknown }).scope;
    return typeof scope === 'string' ? scope : undefined;
  } catch {
    return undefined;
  }
}

function pass(upstream: URL, incoming: IncomingMessage, body: Buffer, outgoing: ServerResponse): void {
  const upstreamRequest = forward(
    { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstreamRequest.on('error', () => outgoing.destroy());
  upstreamRequest.end(body);
}
