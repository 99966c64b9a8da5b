/**
 * A small hostile HTTP server on 127.0.0.1 for the answers the emulator never gives: wrong
 * types, truncated or deeply nested JSON, oversized or HTML bodies, listings that ignore
 * `start` or never end. Each test passes its own handler; every request is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface HostileServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse, index: number) => void | Promise<void>;

/** Starts a server answering every request with `handler`. */
export async function startHostileServer(handler: Handler): Promise<HostileServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const index = requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers }) - 1;
    request.resume();
    request.on('end', () => {
      Promise.resolve(handler(request, response, index)).catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON (or raw string) answer with a correct Content-Length. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers });
  response.end(bytes);
}

/** `count` ordinary invitations with ids `${prefix}-0`, `${prefix}-1`, … */
export function invitations(count: number, prefix = 'inv', from = 0): { id: string; invitationType: string }[] {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}-${from + i}`, invitationType: 'single_use' }));
}
