/**
 * A hostile (or broken) service behind AUTOJOIN_BASE_URL: the state reader must end every
 * read with one clear error naming the scope and the request, within a time bound, and
 * never hang, crash or quietly return a partial state. The server is a tiny node:http
 * handler on 127.0.0.1 chosen per test; the client is the real one over loopback.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, readLiveState, type ReadMode, type ServiceClient } from '../../src/service/index.js';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

const KEY = 'hostile-test-key';
const open: { server: http.Server; client: ServiceClient }[] = [];

afterEach(async () => {
  for (const { server, client } of open.splice(0)) {
    await client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Starts `handler` on a free loopback port; @returns a client with a small, fast retry budget. */
async function hostile(handler: Handler, options: { requestTimeoutMs?: number; maxPages?: number } = {}): Promise<{ client: ServiceClient; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = createClient({
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: KEY,
    requestTimeoutMs: options.requestTimeoutMs ?? 2_000,
    maxPages: options.maxPages,
    retry: { maxRetries: 2, minDelayMs: 5, maxDelayMs: 20, maxTotalMs: 5_000 },
  });
  open.push({ server, client });
  return { client, hits };
}

/**
 * Reads one scope (by the by-group listing unless told otherwise: most answers here are listings)
 * and @returns the error message, failing if the read succeeds (a read that hangs fails on the test's timeout).
 */
async function readError(client: ServiceClient, scope = 'x', listing: ReadMode = 'by-group'): Promise<string> {
  const error = await readLiveState(client, [{ scopeType: 'team', scope }], { mode: listing }).then(
    () => null,
    (failure: unknown) => failure,
  );
  assert(error instanceof Error, 'the read should have failed');
  expect(error.message).not.toContain(KEY);
  expect(error.message).not.toContain('\n');
  return error.message;
}

const json = (response: http.ServerResponse, body: string, status = 200): void => {
  response.writeHead(status, { 'content-type': 'application/json' }).end(body);
};

/** Invitations with ids unique per `start`, so every page is "new". */
const page = (start: number, count = 20): string =>
  JSON.stringify({ invitations: Array.from({ length: count }, (_, i) => ({ id: `inv-${start}-${i}`, invitationType: 'single_use', deactivated: false })) });

const startOf = (url: string | undefined): number => Number(new URL(url ?? '/', 'http://x').searchParams.get('start') ?? 0);

describe('the state reader against a hostile server', () => {
  it('refuses an oversized body (9 MiB, streamed without Content-Length) at the 8 MiB cap', async () => {
    const { client } = await hostile((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"invitations":[');
      const chunk = `${JSON.stringify({ id: 'x'.repeat(200) })},`.repeat(1_000);
      for (let sent = 0; sent < 9 * 2 ** 20; sent += chunk.length) response.write(chunk);
      response.end('{"id":"last"}]}');
    });
    expect(await readError(client, 'big')).toBe('reading team/big failed: [GET] /api/v1/invitations/by-group/team/big?start=0: response body exceeds 8388608 bytes');
  });

  it('refuses JSON nested 100,000 levels deep without overflowing the stack', async () => {
    const { client } = await hostile((_request, response) => {
      json(response, `{"invitations":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`);
    });
    expect(await readError(client, 'deep')).toBe(
      'reading team/deep failed: [GET] /api/v1/invitations/by-group/team/deep?start=0: invalid response: the JSON is nested deeper than 64 levels',
    );
  });

  it.each([
    ['invitations is a string', '{"invitations":"none"}'],
    ['an id is a number', '{"invitations":[{"id":42}]}'],
    ['the body is an array', '[{"id":"a"}]'],
    ['deactivated is a string', '{"invitations":[{"id":"a","deactivated":"no"}]}'],
    ['target is an object', '{"invitations":[{"id":"a","invitationType":"autojoin","deactivated":false,"target":{"type":"domain"}}]}'],
  ])('refuses a listing with wrong types (%s)', async (_name, body) => {
    const { client } = await hostile((_request, response) => json(response, body));
    expect(await readError(client)).toMatch(
      /^reading team\/x failed: \[GET\] \/api\/v1\/invitations\/by-group\/team\/x\?start=0: invalid response: InvitationListing \S.*$/,
    );
  });

  it('refuses an HTML page and a truncated body, each with the reason', async () => {
    const html = await hostile((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Login</body></html>'));
    expect(await readError(html.client)).toContain('invalid response: the body is an HTML page, not JSON (text/html)');
    const cut = await hostile((_request, response) => json(response, '{"invitations":[{"id":"a"'));
    expect(await readError(cut.client)).toMatch(/start=0: invalid response: the body is not valid JSON \(/);
  });

  it('stops a server that never ends pagination at the page cap, with the cap in the message', async () => {
    const { client, hits } = await hostile((request, response) => json(response, page(startOf(request.url))), { maxPages: 50 });
    expect(await readError(client, 'endless')).toBe(
      'reading team/endless failed: [GET] /api/v1/invitations/by-group/team/endless: the listing did not end within 50 pages (1000 invitations); raise maxPages if the scope really has more invitations',
    );
    expect(hits).toHaveLength(50);
    expect(hits.slice(0, 3).map(startOf)).toEqual([0, 19, 39]);
  });

  it('stops a server that never ends pagination at the default cap of 500 pages', async () => {
    const { client, hits } = await hostile((request, response) => json(response, page(startOf(request.url))));
    expect(await readError(client, 'endless')).toContain('the listing did not end within 500 pages (10000 invitations)');
    expect(hits).toHaveLength(500);
  });

  it('ends the walk when pages repeat forever (a server that ignores start): no new ids, so no third request', async () => {
    const { client, hits } = await hostile((request, response) => {
      json(response, request.url?.endsWith('/autojoin') ? '{"autojoinDomains":[],"invitation":null}' : page(0));
    });
    const live = await readLiveState(client, [{ scopeType: 'team', scope: 'loop' }], { mode: 'by-group' });
    expect(hits.filter((hit) => !hit.endsWith('/autojoin')).map(startOf)).toEqual([0, 19]);
    expect(live.get('team/loop')).toMatchObject({ domains: [], autojoin: null });
  });

  it('ends a read whose body stalls after the headers with a timeout', async () => {
    const { client, hits } = await hostile(
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"invitations":[');
      },
      { requestTimeoutMs: 300 },
    );
    const message = await readError(client, 'stall');
    expect(message).toMatch(/^reading team\/stall failed: \[GET\] \/api\/v1\/invitations\/by-group\/team\/stall\?start=0: .*timeout.* \(gave up after 3 attempts\)$/i);
    expect(hits).toHaveLength(3);
  });

  it('gives up on a server that resets every connection, after the retry budget', async () => {
    const { client, hits } = await hostile((request) => request.socket.destroy());
    const message = await readError(client, 'reset');
    expect(message).toMatch(/^reading team\/reset failed: \[GET\] \/api\/v1\/invitations\/by-group\/team\/reset\?start=0: .*\(gave up after 3 attempts\)$/);
    expect(hits).toHaveLength(3);
  });

  it('refuses a hostile call 2b answer when the listing gives no domain targets', async () => {
    const { client, hits } = await hostile((request, response) => {
      if (request.url?.endsWith('/autojoin')) { json(response, '{"autojoinDomains":"acme.com","invitation":{"id":"aj"}}'); return; }
      json(response, '{"invitations":[{"id":"aj","invitationType":"autojoin","deactivated":false}]}');
    });
    expect(await readError(client, 'no-targets')).toMatch(
      /^reading team\/no-targets failed: \[GET\] \/api\/v1\/invitations\/by-scope\/team\/no-targets\/autojoin: invalid response: AutojoinState \S/,
    );
    expect(hits).toEqual(['/api/v1/invitations/by-group/team/no-targets?start=0', '/api/v1/invitations/by-scope/team/no-targets/autojoin']);
  });

  it('fails, rather than read "no domains", when call 2b answers 404 for an active autojoin invitation without targets', async () => {
    const { client } = await hostile((request, response) => {
      if (request.url?.endsWith('/autojoin')) { json(response, '{"statusCode":404,"message":"Not Found","error":"Not Found"}', 404); return; }
      json(response, '{"invitations":[{"id":"aj-1","invitationType":"autojoin","deactivated":false}]}');
    });
    expect(await readError(client, 'gone')).toBe(
      'reading team/gone failed: the by-group listing (call 1) shows active autojoin invitation aj-1 without domain targets, and this service does not offer call 2b (by-scope/…/autojoin), which would give its domains',
    );
  });

  it.each([
    ['autojoinDomains is a string', '{"autojoinDomains":"acme.com","invitation":null}'],
    ['an invitation without id', '{"autojoinDomains":[],"invitation":{"deactivated":false}}'],
    ['the body is an array', '[]'],
  ])('the default read (call 2b alone) refuses a hostile answer (%s)', async (_name, body) => {
    const { client, hits } = await hostile((_request, response) => json(response, body));
    expect(await readError(client, 'x', 'autojoin')).toMatch(
      /^reading team\/x failed: \[GET\] \/api\/v1\/invitations\/by-scope\/team\/x\/autojoin: invalid response: AutojoinState \S.*$/,
    );
    expect(hits).toEqual(['/api/v1/invitations/by-scope/team/x/autojoin']);
  });

  it('the default read takes an HTML 404 for what it is (a wrong base URL), not for a missing call 2b', async () => {
    const { client, hits } = await hostile((_request, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<html>nginx</html>'));
    expect(await readError(client, 'x', 'autojoin')).toBe(
      'reading team/x failed: [GET] /api/v1/invitations/by-scope/team/x/autojoin: 404 Not Found (an HTML page, not the service: check AUTOJOIN_BASE_URL)',
    );
    expect(hits).toHaveLength(1);
  });

  it('never echoes the key, even when the server puts it in its error message', async () => {
    const { client } = await hostile((request, response) =>
      json(response, JSON.stringify({ statusCode: 400, message: `bad key ${String(request.headers['x-api-key'])}`, error: 'Bad Request' }), 400),
    );
    expect(await readError(client)).toBe('reading team/x failed: [GET] /api/v1/invitations/by-group/team/x?start=0: 400 bad key ***');
  });
});
