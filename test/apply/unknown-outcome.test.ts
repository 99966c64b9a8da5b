/**
 * A write whose outcome the client cannot know: the service stored it, but its answer never
 * came (the attempt ran past its deadline, or the connection dropped after the request was sent)
 * and the retries that followed failed. The report must not call it failed for sure: it says the
 * write may or may not have been stored (a later read, a plan, tells which). A write the service
 * refused on every attempt stays failed, without that doubt.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyChanges, MAY_BE_STORED } from '../../src/apply/apply-changes.js';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createClient, type ClientOptions, type ServiceClient } from '../../src/service/client.js';
import type { RequestEvent } from '../../src/service/trace.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { defined } from '../support/defined.js';

const KEY = 'sk-unknown-outcome-7f3a';
/** Two attempts, retried at once: the first one's fate decides the test. */
const ONE_RETRY = { maxRetries: 1, minDelayMs: 1, maxDelayMs: 1 };
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CHANGE = { kind: 'create', key: 'team/eng', scope: 'eng', scopeType: 'team', componentId: 'cmp_test', before: [], after: ['eng.example'], reason: 'declared' } as Change;
const PLAN: Plan = { formatVersion: 5, createdAt: '2025-01-01T00:00:00.000Z', target: 'http://127.0.0.1', owner: 'default', notManagedHere: [], drift: [], changes: [CHANGE], scopes: [{ key: CHANGE.key, fingerprint: 'x' }] };

async function emulatorWith(beforeAnswer?: (request: { method: string }) => Promise<void> | void): Promise<Emulator> {
  const emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY, ...(beforeAnswer ? { beforeAnswer } : {}) });
  cleanups.push(() => emulator.close());
  return emulator;
}

function clientOf(url: string, options: Partial<ClientOptions> = {}): ServiceClient {
  const client = createClient({ baseUrl: url, apiKey: KEY, retry: ONE_RETRY, ...options });
  cleanups.push(() => client.close());
  return client;
}

function storedDomains(emulator: Emulator): string[] | undefined {
  return emulator.data().scopes['team/eng']?.autojoin?.domains.map((entry) => entry.domain);
}

/** What the report says of the one scope: failed, with its reason. */
async function failureOf(client: ServiceClient): Promise<string> {
  const report = await applyChanges(client, PLAN);
  expect(report.applied).toEqual([]);
  return defined(report.failed[0]).reason;
}

/**
 * A proxy to `target` that passes each POST on and, once the service has answered (the write is
 * stored), answers the client with `answer(n)` for the nth POST: `drop` resets the connection.
 */
async function proxyTo(target: string, answer: (nth: number) => 'drop' | number): Promise<{ url: string; forwarded: Promise<unknown>[] }> {
  const forwarded: Promise<unknown>[] = [];
  let posts = 0;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const nth = ++posts;
      const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
      const pass = fetch(`${target}${request.url ?? '/'}`, { method: 'POST', headers, body: Buffer.concat(chunks) }).then(async (reply) => {
        await reply.arrayBuffer();
        const what = answer(nth);
        if (what === 'drop') response.socket?.resetAndDestroy();
        else response.writeHead(what, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: what, message: 'proxy says no' }));
      });
      forwarded.push(pass);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, forwarded };
}

describe('a write stored without its answer reaching the client', () => {
  it('the connection reset after the write was stored, then a 503: the report says it may or may not have been stored', async () => {
    const emulator = await emulatorWith();
    const proxy = await proxyTo(emulator.url, (nth) => (nth === 1 ? 'drop' : 503));
    const reason = await failureOf(clientOf(proxy.url));
    await Promise.all(proxy.forwarded);
    expect(storedDomains(emulator)).toEqual(['eng.example']);
    expect(reason).toMatch(/^\[POST\] \/api\/v1\/invitations\/autojoin: 503 proxy says no \(gave up after 2 attempts\): its write may or may not have been stored \(a plan shows which\)$/u);
  });

  it('the answer came after the attempt deadline (the emulator held it), then an emulator error: unknown too', async () => {
    let gaveUp: () => void = () => undefined;
    const firstAttemptOver = new Promise<void>((resolve) => (gaveUp = resolve));
    let posts = 0;
    const emulator = await emulatorWith(async ({ method }) => {
      if (method !== 'POST') return;
      // The first attempt is answered (and stored) only once the client gave it up; the second fails.
      if (++posts === 1) await firstAttemptOver;
      else throw new Error('second attempt refused');
    });
    const onRequest = (event: RequestEvent): void => {
      if (event.retry === 0 && event.status === undefined) gaveUp();
    };
    const reason = await failureOf(clientOf(emulator.url, { requestTimeoutMs: 100, onRequest }));
    expect(reason).toContain(`: 500 Emulator error: second attempt refused (gave up after 2 attempts): ${MAY_BE_STORED} (a plan shows which)`);
    // The first attempt's write lands once the emulator handles it, after the client gave up on it.
    await vi.waitFor(() => expect(storedDomains(emulator)).toEqual(['eng.example']));
  });

  it('refused on every attempt: failed for sure, and the report says so without doubt', async () => {
    const refusing = createServer((_request, response) => response.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"down"}'));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => { refusing.closeAllConnections(); refusing.close(() => resolve()); }));
    const reason = await failureOf(clientOf(`http://127.0.0.1:${(refusing.address() as AddressInfo).port}`));
    expect(reason).toBe('[POST] /api/v1/invitations/autojoin: 503 down (gave up after 2 attempts)');
  });

  it("a gateway's 504 (it stopped waiting for the service) leaves the outcome unknown", async () => {
    const gateway = createServer((_request, response) => response.writeHead(504, { 'content-type': 'application/json' }).end('{"message":"upstream timed out"}'));
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => { gateway.closeAllConnections(); gateway.close(() => resolve()); }));
    const reason = await failureOf(clientOf(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}`));
    expect(reason).toBe(`[POST] /api/v1/invitations/autojoin: 504 upstream timed out (gave up after 2 attempts): ${MAY_BE_STORED} (a plan shows which)`);
  });

  it('a connection never made sent nothing: failed for sure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const reason = await failureOf(clientOf(`http://127.0.0.1:${port}`));
    expect(reason).toMatch(/ECONNREFUSED/u);
    expect(reason).not.toContain(MAY_BE_STORED);
  });
});
