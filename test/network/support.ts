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
import { networkInterfaces } from 'node:os';
import { createServer as createTlsServer } from 'node:tls';
import { createProxy } from 'proxy';

/** PEM files of a private CA and of a leaf certificate for IP 127.0.0.1 signed by it. */
export interface TestCertificates {
  caFile: string;
  key: string;
  cert: string;
}

/**
 * @returns an IPv4 address of this machine that is not loopback (e.g. eth0's), or undefined: a
 *   service there is reached through a proxy, where a loopback one never is
 */
export function outwardAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
}

/** Generates a CA and a server certificate for 127.0.0.1 (and `moreIps`) in `dir` (openssl; a few hundred ms). */
export function makeCertificates(dir: string, moreIps: string[] = []): TestCertificates {
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  };
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=autojoin-sync test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  const ips = ['127.0.0.1', ...moreIps].map((ip) => `IP:${ip}`).join(',');
  writeFileSync(file('ext.cnf'), `subjectAltName=${ips}\nbasicConstraints=CA:FALSE\n`);
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'ext.cnf');
  return { caFile: file('ca.pem'), key: readFileSync(file('server.key'), 'utf8'), cert: readFileSync(file('server.pem'), 'utf8') };
}

/** A listening server on 127.0.0.1 and how to stop it. */
export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** An https:// front on `host` for `targetPort` (on 127.0.0.1): terminates TLS with `certs` and relays the bytes. */
export async function startTlsRelay(certs: TestCertificates, targetPort: number, host = '127.0.0.1'): Promise<Listening> {
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
  const port = await listen(server, host);
  const close = (): Promise<void> => {
    for (const socket of sockets) socket.destroy();
    return closeServer(server);
  };
  return { url: `https://${host}:${port}`, port, close };
}

/** A proxy; `tunnels` lists each CONNECT target (`host:port`) in order, `forwarded` each plain proxied request's URL. */
export interface TestProxy extends Listening {
  tunnels: string[];
  forwarded: string[];
}

export async function startProxy(): Promise<TestProxy> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const server = createProxy(createHttpServer());
  server.on('connect', (request: { url?: string }) => tunnels.push(request.url ?? ''));
  server.on('request', (request: { url?: string }) => forwarded.push(request.url ?? ''));
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, tunnels, forwarded, close: () => closeServer(server) };
}

async function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

function closeServer(server: Server): Promise<void> {
  (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}
