/**
 * Networks as they are, on 127.0.0.1: a private CA made with the openssl CLI at test time, an
 * https server with a certificate from it relaying to an emulator (TLS terminated here, the
 * emulator stays plain HTTP), and a real HTTP CONNECT proxy (the `proxy` package) that records
 * the tunnels it opened.
 */
import { execFileSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { connect as netConnect, type AddressInfo, type Server, type Socket } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { createProxy } from 'proxy';

/** PEM files of a private CA and of a leaf certificate for IP 127.0.0.1 signed by it. */
export interface TestCertificates {
  caFile: string;
  key: string;
  cert: string;
}

/** Generates a CA and a 127.0.0.1 server certificate in `dir` (openssl; a few hundred ms). */
export function makeCertificates(dir: string): TestCertificates {
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  };
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=autojoin-sync test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'ext.cnf');
  return { caFile: file('ca.pem'), key: readFileSync(file('server.key'), 'utf8'), cert: readFileSync(file('server.pem'), 'utf8') };
}

/** A listening server on 127.0.0.1 and how to stop it. */
export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** An https:// front for `targetPort`: terminates TLS with `certs` and relays the bytes. */
export async function startTlsRelay(certs: TestCertificates, targetPort: number): Promise<Listening> {
  const sockets = new Set<Socket>();
  const server = createTlsServer({ key: certs.key, cert: certs.cert }, (socket) => {
    const upstream = netConnect(targetPort, '127.0.0.1');
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    const end = (): void => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end);
    upstream.on('error', end);
  });
  // A client that fails the handshake (the point of some tests) must not leave an error unhandled.
  server.on('tlsClientError', () => undefined);
  const port = await listen(server);
  const close = (): Promise<void> => {
    for (const socket of sockets) socket.destroy();
    return closeServer(server);
  };
  return { url: `https://127.0.0.1:${port}`, port, close };
}

/** A CONNECT proxy; `tunnels` lists each CONNECT target (`host:port`) in order. */
export interface TestProxy extends Listening {
  tunnels: string[];
}

export async function startProxy(): Promise<TestProxy> {
  const tunnels: string[] = [];
  const server = createProxy(createHttpServer());
  server.on('connect', (request: { url?: string }) => tunnels.push(request.url ?? ''));
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, tunnels, close: () => closeServer(server) };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function closeServer(server: Server): Promise<void> {
  (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}
