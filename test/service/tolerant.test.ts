/**
 * The client against small fakes that answer the way the service's SDK types say it may:
 * `invitation: null`, listings that do not paginate, mobile-SDK payloads and fields no SDK
 * knows, error bodies with only `error`, a 422, and a by-group call that is gone.
 */
import { describe, expect, it } from 'vitest';
import { createClient, readLiveState, ServiceError, type ServiceClient } from '../../src/service/index.js';
import { useCleanup } from './support/cleanup.js';
import { sendJson, startHostileServer, type Handler, type HostileServer } from './support/hostile-server.js';
import { FAST_RETRY, SCOPE_1, listAll } from './support/peer.js';

const closeAfterTest = useCleanup();
const KEY = 'secret-key-5151';

async function fake(handler: Handler): Promise<{ server: HostileServer; client: ServiceClient; notices: string[] }> {
  const server = closeAfterTest(await startHostileServer(handler));
  const notices: string[] = [];
  const client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: KEY, retry: FAST_RETRY, onNotice: (m) => notices.push(m) }));
  return { server, client, notices };
}

/** An invitation as a mobile SDK leaves it: list and object form values, unknown fields and enum values, null modifiedAt. */
function mobileInvitation(id: string): Record<string, unknown> {
  return {
    id,
    invitationType: 'multi_use',
    status: 'teleported',
    deactivated: false,
    modifiedAt: null,
    target: [{ type: 'carrier_pigeon', value: 'coo', name: null, avatarUrl: null }],
    formSubmissionData: {
      emails: { type: 'email', role: 'invitee', value: ['a@x.example', 'b@x.example'] },
      contact: { type: 'contact', value: { name: 'A', phones: ['+1555'] } },
      raw: ['x', 1, null],
    },
    configurationAttributes: { nested: { deep: [1, 2, { three: 3 }] } },
    attributes: 'not an object at all',
    metadata: ['a list'],
    passThrough: { not: 'a string' },
    accepts: [{ id: 'acc1', accountId: 'a', acceptedAt: '2024-01-01T00:00:00Z', target: { type: 'email', value: 'a@x.example' } }],
    groups: [{ id: 'grp_1', accountId: 'a', groupId: 'scope-0001', type: 'team', name: 'One', createdAt: '2024-01-01T00:00:00Z' }],
    x_future: { anything: true },
  };
}

const autojoinInvitation = (overrides: Record<string, unknown> = {}) => ({
  ...mobileInvitation('aj-1'),
  invitationType: 'autojoin',
  status: 'sent',
  target: [],
  metadata: { owner: 'eng' },
  groups: [{ id: 'grp_9', accountId: 'a', groupId: 'scope-0001', type: 'team', name: 'Acme Eng', createdAt: '2024-01-01T00:00:00Z' }],
  ...overrides,
});

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ServiceError);
  expect((error as Error).message).not.toContain(KEY);
  return error as ServiceError;
}

describe('tolerant reading', () => {
  it('passes mobile-SDK payloads, unknown fields and unknown enum values', async () => {
    const { client } = await fake((_q, r) => sendJson(r, 200, { invitations: [mobileInvitation('m-1'), mobileInvitation('m-2')], nextCursor: null }));
    const listed = await listAll(client, 'by-scope', SCOPE_1);
    expect(listed.map((invitation) => invitation.id)).toEqual(['m-1', 'm-2']);
    expect(listed[0]?.formSubmissionData).toEqual(mobileInvitation('m-1').formSubmissionData);
  });

  it('reads invitation null from call 2 and 2b, and from an answer that leaves it out', async () => {
    const { client } = await fake((request, r) =>
      request.method === 'POST' ? sendJson(r, 200, { autojoinDomains: [], invitation: null }) : sendJson(r, 200, { autojoinDomains: [] }),
    );
    expect(await client.syncAutojoin({ ...SCOPE_1, componentId: 'c', domains: [] })).toEqual({ autojoinDomains: [], invitation: null });
    expect(await client.getAutojoin(SCOPE_1)).toEqual({ autojoinDomains: [] });
  });

  it('a page of more than 20 means no pagination: one request, every invitation (1,200 here)', async () => {
    const all = Array.from({ length: 1200 }, (_, i) => mobileInvitation(`inv-${i}`));
    const { client, server } = await fake((_q, r) => sendJson(r, 200, { invitations: all }));
    expect(await listAll(client, 'by-scope', SCOPE_1)).toHaveLength(1200);
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/invitations/by-scope/team/scope-0001?start=0']);
  });

  it('still refuses the wrong type in a field it uses', async () => {
    const { client } = await fake((_q, r) => sendJson(r, 200, { invitations: [{ id: 'x', groups: { name: 'not a list' } }] }));
    expect((await failure(listAll(client, 'by-scope', SCOPE_1))).message).toMatch(/invalid response: InvitationListing \/invitations\/0\/groups must be array,null$/u);
  });

  it('reads the name from the group whose groupId is the scope, and the metadata, with the default listing', async () => {
    const { client } = await fake((request, r) => {
      if (request.url?.includes('/autojoin')) sendJson(r, 200, { autojoinDomains: [{ id: 'd1', domain: 'acme.com' }], invitation: autojoinInvitation() });
      else sendJson(r, 200, { invitations: [mobileInvitation('m-1'), autojoinInvitation()] });
    });
    const live = await readLiveState(client, [SCOPE_1]);
    expect(live.get('team/scope-0001')).toMatchObject({ domains: ['acme.com'], scopeName: 'Acme Eng', metadata: { owner: 'eng' } });
  });
});

describe('--listing autojoin (call 2b only)', () => {
  it('reads one request per scope: active, inactive and none', async () => {
    const { client, server } = await fake((request, r) => {
      const scope = request.url?.split('/')[6];
      if (scope === 'on') sendJson(r, 200, { autojoinDomains: [{ id: 'd', domain: 'Acme.COM' }], invitation: autojoinInvitation({ groups: [] }) });
      else if (scope === 'off') sendJson(r, 200, { autojoinDomains: [], invitation: autojoinInvitation({ deactivated: true }) });
      else sendJson(r, 200, { autojoinDomains: [], invitation: null });
    });
    const refs = ['on', 'off', 'none'].map((scope) => ({ scopeType: 'team', scope }));
    const live = await readLiveState(client, refs, { mode: 'autojoin' });
    expect(live.get('team/on')).toMatchObject({ domains: ['acme.com'], autojoin: { invitationId: 'aj-1' }, scopeName: null });
    expect(live.get('team/off')).toMatchObject({ domains: [], autojoin: null });
    expect(live.get('team/none')).toMatchObject({ domains: [], autojoin: null });
    expect(server.requests.every((request) => request.url.endsWith('/autojoin'))).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it('a 404 from every call is an error in the end, never "no autojoin"', async () => {
    const { client, notices } = await fake((_q, r) => sendJson(r, 404, { statusCode: 404, message: 'Not Found' }));
    await expect(readLiveState(client, [SCOPE_1], { mode: 'autojoin' })).rejects.toThrow(
      'reading team/scope-0001 failed: [GET] /api/v1/invitations/by-group/team/scope-0001?start=0: 404 Not Found',
    );
    expect(notices).toHaveLength(2); // 2b missing → by-scope; by-scope gone → by-group
  });

  it('a listing that shows an active autojoin while call 2b shows none is an error', async () => {
    const { client } = await fake((request, r) => {
      if (request.url?.includes('/autojoin')) sendJson(r, 200, { autojoinDomains: [], invitation: null });
      else sendJson(r, 200, { invitations: [autojoinInvitation()] });
    });
    await expect(readLiveState(client, [SCOPE_1], { mode: 'by-scope' })).rejects.toThrow(
      'reading team/scope-0001 failed: the listing and call 2b disagree: the by-scope listing (call 1b) shows active autojoin invitation aj-1 without domain targets, but call 2b (by-scope/…/autojoin) shows no autojoin invitation (invitation: null) and no domains',
    );
  });
});

describe("errors carry the service's reason", () => {
  const SYNC_BODY = { ...SCOPE_1, componentId: 'c', domains: ['acme.com'] };
  it.each([
    [422, { error: 'Domain acme.com is not verified' }, '422 Domain acme.com is not verified'],
    [422, { statusCode: 422, message: ['domains.0 is not verified', 'scope is locked'], error: 'Unprocessable Entity' }, '422 domains.0 is not verified; scope is locked'],
    [400, { statusCode: 400, message: [], error: 'Bad Request' }, '400 Bad Request'],
    [409, { message: 'A sync for this scope is in progress' }, '409 A sync for this scope is in progress'],
    [404, { error: 'Scope not found' }, '404 Scope not found'],
    [401, { error: 'Invalid API key' }, '401 Invalid API key (check AUTOJOIN_API_KEY)'],
    [403, {}, '403 Forbidden (check AUTOJOIN_API_KEY)'],
    [422, { error: { nested: true } }, '422 Unprocessable Entity'],
  ])('%i %j', async (status, body, shown) => {
    const { client } = await fake((_q, r) => sendJson(r, status, body));
    const error = await failure(client.syncAutojoin(SYNC_BODY));
    expect(error.message).toBe(`[POST] /api/v1/invitations/autojoin: ${shown}`);
  });

  it('429 and 5xx are retried, then keep the reason', async () => {
    const { client, server } = await fake((_q, r) => sendJson(r, 503, { error: 'maintenance window' }));
    const error = await failure(client.syncAutojoin(SYNC_BODY));
    expect(error.message).toMatch(/^\[POST\] \/api\/v1\/invitations\/autojoin: 503 maintenance window \(gave up after \d+ attempts\)$/u);
    expect(server.requests.length).toBeGreaterThan(1);
  });

  it('a key echoed in an {error} body is redacted', async () => {
    const { client } = await fake((request, r) => sendJson(r, 422, { error: `key ${String(request.headers['x-api-key'])} may not do that` }));
    expect((await failure(client.syncAutojoin(SYNC_BODY))).message).toBe('[POST] /api/v1/invitations/autojoin: 422 key *** may not do that');
  });
});

describe('the by-group call removed', () => {
  it.each([404, 410])('on %i, switches to by-scope for the rest of the run, with one notice', async (status) => {
    const { client, server, notices } = await fake((request, r) => {
      if (request.url?.includes('/by-group/')) sendJson(r, status, { statusCode: status, message: 'Cannot GET' });
      else sendJson(r, 200, { invitations: [mobileInvitation(`x-${request.url?.split('/')[6]}`)] });
    });
    for (const scope of ['a', 'b', 'c']) {
      expect(await listAll(client, 'by-group', { scopeType: 'team', scope })).toHaveLength(1);
    }
    expect(server.requests.filter((request) => request.url.includes('/by-group/'))).toHaveLength(1);
    expect(server.requests.filter((request) => request.url.includes('/by-scope/'))).toHaveLength(3);
    expect(notices).toEqual([`the by-group listing answered ${status}: reading with by-scope (call 1b) for the rest of this run`]);
  });

  it('other statuses are errors, not a switch', async () => {
    const { client, notices } = await fake((_q, r) => sendJson(r, 400, { message: 'bad group type' }));
    expect((await failure(listAll(client, 'by-group', SCOPE_1))).status).toBe(400);
    expect(notices).toEqual([]);
  });
});
