/**
 * Retries against the emulator's injected faults: with some faults the call succeeds within
 * the retry budget; with every request faulted it fails with a clear error once it is spent.
 */
import { describe, expect, it, vi } from 'vitest';
import type { FaultKind } from '../../src/emulator/index.js';
import { createClient, ServiceError } from '../../src/service/index.js';
import { useCleanup } from './support/cleanup.js';
import { startPeer, SCOPE_1, FAST_RETRY, listAll } from './support/peer.js';
import { sendJson, startHostileServer } from './support/hostile-server.js';
import { useWording } from '../../src/hint.js';
import { cliWording } from '../../src/cli/cli-wording.js';

// The messages asserted here are worded as the CLI words them (src/hint.ts).
useWording(cliWording);

const closeAfterTest = useCleanup();

/**
 * Slow faults answer after 0.5 s; the client's request deadline stops waiting after 100 ms.
 * The emulator logs a slow request only when it answers, so the test waits for that log.
 */
const SLOW = { slowMs: 500 };
const SHORT_TIMEOUT = { requestTimeoutMs: 100 };
/** With this seed, rate 0.4 faults requests 2, 4, 6, 7, 12, 13, … and never 4 in a row in the first 30. */
const SOME_FAULTS = { faultRate: 0.4, faultSeed: 6 };

describe.each<FaultKind>(['500', '503', '429', 'reset', 'slow', 'truncated'])('fault %s', (kind) => {
  it('is retried until the call succeeds', async () => {
    const peer = closeAfterTest(await startPeer(
      { ...SLOW, ...SOME_FAULTS, faults: [kind], generate: { invitationsPerScope: 70, domainsPerScope: 2 } },
      SHORT_TIMEOUT,
    ));
    const ids = (await listAll(peer.client, 'by-scope', SCOPE_1)).map((i) => i.id);
    await peer.client.syncAutojoin({ ...SCOPE_1, componentId: 'cmp-1', domains: ['one.example', 'two.example'] });

    expect(new Set(ids).size).toBe(71);
    const faulted = (): number => peer.emulator.requests.filter((r) => r.fault === kind).length;
    await vi.waitFor(() => expect(faulted()).toBeGreaterThan(0), { timeout: 5_000 });
    expect(peer.client.requestCount).toBeGreaterThan(5); // 5 pages + 1 POST, plus retries
    const stored = peer.emulator.data().scopes['team/scope-0001']?.autojoin?.domains.map((d) => d.domain);
    expect(stored?.sort()).toEqual(['one.example', 'two.example']);
  });
});

describe('once the retry budget is spent', () => {
  const cases: [FaultKind, ServiceError['code'], RegExp][] = [
    ['500', 'http', /: 500 Service error \(injected by the emulator\) \(gave up after 5 attempts\)$/u],
    ['503', 'http', /: 503 Service error \(injected by the emulator\) \(gave up after 5 attempts\)$/u],
    ['reset', 'network', /\(gave up after 5 attempts\)$/u],
    ['truncated', 'network', /\(gave up after 5 attempts\)$/u],
  ];
  it.each(cases)('fault %s fails with a clear %s error after 5 attempts', async (kind, code, message) => {
    const peer = closeAfterTest(await startPeer({ ...SLOW, faultRate: 1, faults: [kind] }, SHORT_TIMEOUT));
    const error = (await listAll(peer.client, 'by-scope', SCOPE_1).catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.code).toBe(code);
    expect(error.attempts).toBe(5);
    expect(error.message.startsWith('[GET] /api/v1/invitations/by-scope/team/scope-0001?start=0: ')).toBe(true);
    expect(error.message).toMatch(message);
    expect(peer.client.requestCount).toBe(5);
  });

  it('fault slow fails with a clear timeout error once its (smaller) retry count is spent', async () => {
    const peer = closeAfterTest(await startPeer({ ...SLOW, faultRate: 1, faults: ['slow'] }, { ...SHORT_TIMEOUT, retry: { ...FAST_RETRY, maxRetries: 1 } }));
    const error = (await listAll(peer.client, 'by-scope', SCOPE_1).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('timeout');
    // Issue 12: a timeout is the total deadline of the attempt now, and says so.
    expect(error.message).toBe(
      '[GET] /api/v1/invitations/by-scope/team/scope-0001?start=0: no complete answer within the 100 ms request deadline (headers and body; --request-timeout or AUTOJOIN_REQUEST_TIMEOUT) (gave up after 2 attempts)',
    );
    expect(peer.client.requestCount).toBe(2);
  });

  it('a POST is retried too, and its 503 message is reported', async () => {
    const peer = closeAfterTest(await startPeer({ faultRate: 1, faults: ['503'] }));
    const error = (await peer.client
      .syncAutojoin({ ...SCOPE_1, componentId: 'cmp-1', domains: ['a.example'] })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error.status).toBe(503);
    expect(error.serviceMessage).toBe('Service error (injected by the emulator)');
    expect(peer.emulator.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'POST', 'POST']);
  });

  it('honours a smaller retry count', async () => {
    const peer = closeAfterTest(await startPeer({ faultRate: 1, faults: ['reset'] }, { retry: { ...FAST_RETRY, maxRetries: 1 } }));
    await expect(peer.client.listEmailPresets()).rejects.toMatchObject({ code: 'network', attempts: 2 });
    expect(peer.client.requestCount).toBe(2);
  });
});

describe('Retry-After and the time budget', () => {
  it('waits at least Retry-After seconds before the next attempt', async () => {
    const times: number[] = [];
    const server = closeAfterTest(await startHostileServer((_request, response, index) => {
      times.push(Date.now());
      if (index === 0) sendJson(response, 429, { statusCode: 429, message: 'slow down' }, { 'retry-after': '1' });
      else sendJson(response, 200, [{ id: 'ep-1' }]);
    }));
    const client = closeAfterTest(createClient({ baseUrl: server.url, accessToken: 't-123456', retry: FAST_RETRY }));
    expect(await client.listEmailPresets()).toEqual([{ id: 'ep-1' }]);
    expect(times).toHaveLength(2);
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(990);
  });

  it('gives up at once when Retry-After would end past the total budget', async () => {
    const server = closeAfterTest(await startHostileServer((_request, response) =>
      sendJson(response, 429, { statusCode: 429, message: 'come back tomorrow' }, { 'retry-after': '86400' }),
    ));
    const client = closeAfterTest(createClient({ baseUrl: server.url, accessToken: 't-123456', retry: FAST_RETRY }));
    // One request and its error: no wait for the Retry-After (a day), which would never end here.
    const error = (await client.listEmailPresets().catch((e: unknown) => e)) as ServiceError;
    expect(error.message).toBe('[GET] /api/v1/customer-invitation-email-presets: 429 come back tomorrow');
    expect(server.requests).toHaveLength(1);
  });

  it('stops retrying when the total time budget is spent', async () => {
    const server = closeAfterTest(await startHostileServer((_request, response) => sendJson(response, 503, { statusCode: 503, message: 'down' })));
    const client = closeAfterTest(createClient({
      baseUrl: server.url,
      accessToken: 't-123456',
      retry: { minDelayMs: 100, maxDelayMs: 1000, maxTotalMs: 250 },
    }));
    const error = (await client.listEmailPresets().catch((e: unknown) => e)) as ServiceError;
    expect(error.status).toBe(503);
    // Delays of 50–100 ms then 100–200 ms fit in 250 ms; the third (200–400 ms) does not.
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it('retries a refused connection, then reports it', async () => {
    const server = await startHostileServer(() => undefined);
    const url = server.url;
    await server.close();
    const client = closeAfterTest(createClient({ baseUrl: url, apiKey: 'k-123456', retry: FAST_RETRY }));
    const error = (await listAll(client, 'by-scope', SCOPE_1).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/ECONNREFUSED.*\(gave up after 5 attempts\)$/u);
    expect(client.requestCount).toBe(5);
  });
});
