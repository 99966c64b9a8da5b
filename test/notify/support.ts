/**
 * A notification receiver on 127.0.0.1 (a real HTTP server; over TLS with a private CA when given
 * certificates): it records each request (headers, body) and answers as its script says, one
 * answer per request in order (the last repeats): a status, a redirect, or no answer at all.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCertificates } from '../network/support.js';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** 200…599, `hang` (never answers: past the deadline), or `redirect` (302 to another path of the receiver). */
export type Answer = number | 'hang' | 'redirect';

export interface Receiver {
  /** `http://127.0.0.1:PORT/PATH` (or https://): the URL a variable holds. */
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startReceiver(answers: Answer[] = [200], options: { path?: string; tls?: TestCertificates; host?: string } = {}): Promise<Receiver> {
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers[Math.min(received.length, answers.length) - 1] ?? 200;
      if (answer === 'hang') {
        hanging.push(response);
        return;
      }
      if (answer === 'redirect') {
        response.writeHead(302, { location: '/moved' }).end();
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
    });
  };
  const server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler) : createHttpServer(handler);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}${options.path ?? '/hooks/T0SECRET/B0SECRET/tokenXYZ123456'}`,
    received,
    close: () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A signing secret of 40 bytes. */
export const SECRET = 'whsec-0123456789abcdef0123456789abcdef-z';
