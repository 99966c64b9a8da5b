/** Answers the emulator never gives, from a small hostile server: each is an error, never a crash. */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, ServiceError, type ClientOptions, type ServiceClient } from '../../src/service/index.js';
import { invitations, sendJson, startHostileServer, type Handler, type HostileServer } from './support/hostile-server.js';
import { FAST_RETRY, SCOPE_1, listAll } from './support/peer.js';
import { useWording } from '../../src/hint.js';
import { cliWording } from '../../src/cli/cli-wording.js';

// The messages asserted here are worded as the CLI words them (src/hint.ts).
useWording(cliWording);

let server: HostileServer | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  server = client = undefined;
});

const KEY = 'secret-key-4242';
const TOKEN = 'secret-token-4343';

async function serve(handler: Handler, options: Partial<ClientOptions> = {}): Promise<ServiceClient> {
  server = await startHostileServer(handler);
  client = createClient({ baseUrl: server.url, apiKey: KEY, accessToken: TOKEN, retry: FAST_RETRY, ...options });
  return client;
}

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  const serviceError = error as ServiceError;
  expect(serviceError.message).not.toContain(KEY);
  expect(serviceError.message).not.toContain(TOKEN);
  return serviceError;
}

const LISTING = '[GET] /api/v1/invitations/by-scope/team/scope-0001?start=0';

describe('hostile responses', () => {
  it('a field of the wrong type is an invalid response naming the field', async () => {
    const c = await serve((_q, r) => sendJson(r, 200, { invitations: [{ id: 'a', deactivated: 'no' }] }));
    const error = await failure(listAll(c, 'by-scope', SCOPE_1));
    expect(error.code).toBe('invalid-response');
    expect(error.message).toBe(`${LISTING}: invalid response: InvitationListing /invitations/0/deactivated must be boolean`);
  });

  it('a missing required field is an invalid response', async () => {
    const c = await serve((_q, r) => sendJson(r, 200, { invitation: { id: 'i' } }));
    const error = await failure(c.syncAutojoin({ ...SCOPE_1, componentId: 'c', domains: ['a.example'] }));
    expect(error.code).toBe('invalid-response');
    expect(error.message).toBe(
      "[POST] /api/v1/invitations/autojoin: invalid response: AutojoinState body must have required property 'autojoinDomains'",
    );
  });

  it('a listing whose invitations are not an array is an invalid response', async () => {
    const c = await serve((_q, r) => sendJson(r, 200, { invitations: { id: 'x' } }));
    expect((await failure(listAll(c, 'by-group', SCOPE_1))).message).toMatch(/\/invitations must be array$/u);
  });

  it('JSON cut short with a clean end is an invalid response, not a crash', async () => {
    const c = await serve((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' }); // chunked: the end looks complete
      r.end('{"invitations":[{"id":"a"},{"id":');
    });
    const error = await failure(listAll(c, 'by-scope', SCOPE_1));
    expect(error.code).toBe('invalid-response');
    expect(error.message).toMatch(/: invalid response: the body is not valid JSON \(/u);
    expect(server?.requests).toHaveLength(1);
  });

  it('an HTML page with status 200 is an invalid response', async () => {
    const c = await serve((_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html' });
      r.end('<!doctype html><html><body>Please log in</body></html>');
    });
    const error = await failure(c.listEmailPresets());
    expect(error.code).toBe('invalid-response');
    expect(error.message).toBe(
      '[GET] /api/v1/customer-invitation-email-presets: invalid response: the body is an HTML page, not JSON (text/html)',
    );
  });

  it('an HTML error page keeps its status and hints at the base URL', async () => {
    const c = await serve((_q, r) => {
      r.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      r.end('<html><body><h1>404 Not Found</h1>nginx</body></html>');
    });
    const error = await failure(listAll(c, 'by-scope', SCOPE_1));
    expect(error.code).toBe('http');
    expect(error.status).toBe(404);
    expect(error.serviceMessage).toBeUndefined();
    expect(error.message).toBe(`${LISTING}: 404 Not Found (an HTML page, not the service: check AUTOJOIN_BASE_URL)`);
  });

  it('a 404 HTML page from call 2b is an error, not "no autojoin"', async () => {
    const c = await serve((_q, r) => {
      r.writeHead(404, { 'content-type': 'text/html' });
      r.end('<html>not here</html>');
    });
    expect((await failure(c.getAutojoin(SCOPE_1))).status).toBe(404);
  });

  it('an error body with a list of messages is joined with "; "', async () => {
    const c = await serve((_q, r) =>
      sendJson(r, 400, { statusCode: 400, message: ['domains must be an array', 'scope should not be empty'], error: 'Bad Request' }),
    );
    const error = await failure(c.syncAutojoin({ ...SCOPE_1, componentId: 'c', domains: [] }));
    expect(error.serviceMessage).toBe('domains must be an array; scope should not be empty');
  });

  it('a body past the size cap is aborted while streaming (no Content-Length)', async () => {
    let written = 0;
    const c = await serve(
      (_q, r) => {
        r.writeHead(200, { 'content-type': 'application/json' });
        r.write('{"invitations":[');
        const chunk = `${JSON.stringify({ id: 'x'.repeat(200) })},`.repeat(50);
        const pump = (): void => {
          while (!r.destroyed && written < 50_000_000 && r.write(chunk)) written += chunk.length;
          if (!r.destroyed && written < 50_000_000) r.once('drain', pump);
        };
        r.on('close', () => undefined);
        pump();
      },
      { maxResponseBytes: 64 * 1024 },
    );
    const error = await failure(listAll(c, 'by-scope', SCOPE_1));
    expect(error.code).toBe('too-large');
    expect(error.message).toBe(`${LISTING}: response body exceeds 65536 bytes`);
    expect(written).toBeLessThan(10_000_000);
    expect(c.requestCount).toBe(1); // never retried
  });

  it('a declared Content-Length past the size cap is refused before the body', async () => {
    const c = await serve((_q, r) => sendJson(r, 200, { invitations: invitations(2000) }), { maxResponseBytes: 1000 });
    expect((await failure(listAll(c, 'by-scope', SCOPE_1))).code).toBe('too-large');
  });

  it('deeply nested JSON is an invalid response, not a stack overflow', async () => {
    const depth = 100_000;
    const c = await serve((_q, r) => sendJson(r, 200, `{"id":"p","x":${'['.repeat(depth)}${']'.repeat(depth)}}`));
    const error = await failure(c.getFormStylePreset('p'));
    expect(error.code).toBe('invalid-response');
    expect(error.message).toMatch(/nested deeper than 64 levels$/u);
  });

  it('an empty 200 body is an invalid response', async () => {
    const c = await serve((_q, r) => {
      r.writeHead(200, { 'content-length': '0' });
      r.end();
    });
    expect((await failure(c.listEmailPresets())).message).toMatch(/invalid response: the body is empty$/u);
  });

  it('a credential echoed back by the server never reaches the message', async () => {
    const c = await serve((request, r) =>
      sendJson(r, 403, { statusCode: 403, message: `key ${String(request.headers['x-api-key'])} is not allowed here` }),
    );
    const error = await failure(listAll(c, 'by-scope', SCOPE_1));
    expect(error.message).toBe(`${LISTING}: 403 key *** is not allowed here (check AUTOJOIN_API_KEY)`);
  });

  it('a body that stalls past the timeout is a timeout error', async () => {
    const c = await serve(
      (_q, r) => {
        r.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        r.write('{"invitations":[');
      },
      { requestTimeoutMs: 50, retry: { ...FAST_RETRY, maxRetries: 0 } },
    );
    const error = await failure(listAll(c, 'by-scope', SCOPE_1));
    expect(error.code).toBe('timeout');
    // Issue 12: a timeout is the total deadline of the attempt now, and says so.
    expect(error.message).toBe(`${LISTING}: no complete answer within the 50 ms request deadline (headers and body; --request-timeout or AUTOJOIN_REQUEST_TIMEOUT)`);
  });

  it('sends the credential headers of each call and nothing else secret', async () => {
    const c = await serve((request, r) => {
      if (request.url?.includes('presets')) sendJson(r, 200, []);
      else if (request.method === 'POST') sendJson(r, 200, { autojoinDomains: [], invitation: { id: 'i' } });
      else sendJson(r, 200, { invitations: [] });
    });
    await listAll(c, 'by-group', SCOPE_1);
    await c.syncAutojoin({ ...SCOPE_1, componentId: 'c', domains: [] });
    await c.listEmailPresets();
    const [list, sync, presets] = server?.requests ?? [];
    expect(list?.headers['x-api-key']).toBe(KEY);
    expect(list?.headers.authorization).toBeUndefined();
    expect(sync?.headers['x-api-key']).toBe(KEY);
    expect(sync?.headers['content-type']).toBe('application/json');
    expect(presets?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(presets?.headers['x-api-key']).toBeUndefined();
  });

  it('puts a base URL path prefix before every API path', async () => {
    server = await startHostileServer((_q, r) => sendJson(r, 200, { invitations: [] }));
    client = createClient({ baseUrl: `${server.url}/proxy/invitations/`, apiKey: KEY });
    expect(client.baseUrl).toBe(`${server.url}/proxy/invitations`);
    await listAll(client, 'by-scope', SCOPE_1);
    expect(server.requests.map((r) => r.url)).toEqual(['/proxy/invitations/api/v1/invitations/by-scope/team/scope-0001?start=0']);
  });
});
