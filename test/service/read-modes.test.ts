/**
 * The read modes (README, "How live state is read") against small fakes on 127.0.0.1: the
 * listing modes held to call 2b in both directions, and the fallbacks when a call is missing
 * (2b → by-scope → by-group), each announced once; no notice while every call answers.
 */
import { describe, expect, it } from 'vitest';
import { createClient, readLiveState, type ReadMode, type ServiceClient } from '../../src/service/index.js';
import { useCleanup } from './support/cleanup.js';
import { sendJson, startHostileServer, type Handler, type HostileServer } from './support/hostile-server.js';
import { FAST_RETRY } from './support/peer.js';

const closeAfterTest = useCleanup();
const team = (scope: string) => ({ scopeType: 'team', scope });

/** @param connections the client's --concurrency: its window's ceiling, so the bound on reads in flight (1: a fixed request order) */
async function fake(handler: Handler, connections?: number): Promise<{ server: HostileServer; client: ServiceClient; notices: string[] }> {
  const server = closeAfterTest(await startHostileServer(handler));
  const notices: string[] = [];
  const client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456', retry: FAST_RETRY, onNotice: (m) => notices.push(m), connections }));
  return { server, client, notices };
}

/** Which call a request is, and for which scope. */
function callOf(request: { url?: string }): { call: 'autojoin' | 'by-scope' | 'by-group'; scope: string } {
  const parts = (request.url ?? '').split('?')[0]?.split('/') ?? [];
  const scope = decodeURIComponent(parts[6] ?? '');
  if (parts[7] === 'autojoin') return { call: 'autojoin', scope };
  return { call: parts[4] === 'by-group' ? 'by-group' : 'by-scope', scope };
}

/** An active autojoin invitation of `scope`, with `SCOPE.example` as a domain target when `targets`. */
const activeInvitation = (scope: string, targets: boolean) => ({
  id: `aj-${scope}`,
  invitationType: 'autojoin',
  deactivated: false,
  target: targets ? [{ type: 'domain', value: `${scope}.example` }] : [],
});
const listing = (scope: string, targets = true) => ({ invitations: [{ id: `x-${scope}`, invitationType: 'single_use' }, activeInvitation(scope, targets)] });
const call2b = (scope: string) => ({ autojoinDomains: [{ id: `d-${scope}`, domain: `${scope}.example` }], invitation: activeInvitation(scope, false) });
const NONE = { autojoinDomains: [], invitation: null };

/** A service whose calls in `missing` answer `status`; the others answer `scope` with one domain. */
function service(missing: Partial<Record<'autojoin' | 'by-scope' | 'by-group', number>>): Handler {
  return (request, response) => {
    const { call, scope } = callOf(request);
    const status = missing[call];
    if (status !== undefined) sendJson(response, status, { statusCode: status, message: `Cannot GET ${request.url ?? ''}` });
    else sendJson(response, 200, call === 'autojoin' ? call2b(scope) : listing(scope));
  };
}

const calls = (server: HostileServer): string[] => server.requests.map((request) => callOf(request).call);

describe('the listing modes agree with call 2b in both directions', () => {
  it.each(['by-scope', 'by-group'] as const)('%s: a listing that omits an active autojoin while call 2b shows domains is an error naming both answers', async (mode) => {
    const { client } = await fake((request, response) => {
      const { call, scope } = callOf(request);
      sendJson(response, 200, call === 'autojoin' ? call2b(scope) : { invitations: [{ id: 'x-1', invitationType: 'single_use' }] });
    });
    await expect(readLiveState(client, [team('acme')], { mode: mode })).rejects.toThrow(
      `reading team/acme failed: the listing and call 2b disagree: the ${mode} listing (call ${mode === 'by-group' ? '1' : '1b'}) shows no active autojoin invitation, ` +
        'but call 2b (by-scope/…/autojoin) shows active autojoin invitation aj-acme with domains acme.example',
    );
  });

  it('a listing whose active autojoin carries domain targets while call 2b shows none is an error too', async () => {
    const { client } = await fake((request, response) => {
      const { call, scope } = callOf(request);
      sendJson(response, 200, call === 'autojoin' ? { autojoinDomains: [], invitation: { ...activeInvitation(scope, false), deactivated: true } } : listing(scope));
    });
    await expect(readLiveState(client, [team('acme')], { mode: 'by-scope' })).rejects.toThrow(
      'reading team/acme failed: the listing and call 2b disagree: the by-scope listing (call 1b) shows active autojoin invitation aj-acme with domains acme.example, ' +
        'but call 2b (by-scope/…/autojoin) shows deactivated autojoin invitation aj-acme with no domains',
    );
  });

  it('agreeing answers read as before: domains from the targets, no notice', async () => {
    const { client, server, notices } = await fake((request, response) => {
      const { call, scope } = callOf(request);
      if (scope === 'none') sendJson(response, 200, call === 'autojoin' ? NONE : { invitations: [] });
      else sendJson(response, 200, call === 'autojoin' ? call2b(scope) : listing(scope));
    }, 1);
    const live = await readLiveState(client, [team('acme'), team('none')], { mode: 'by-scope' });
    expect(live.get('team/acme')).toMatchObject({ domains: ['acme.example'], autojoin: { invitationId: 'aj-acme' } });
    expect(live.get('team/none')).toMatchObject({ domains: [], autojoin: null });
    expect(calls(server)).toEqual(['by-scope', 'autojoin', 'by-scope', 'autojoin']);
    expect(notices).toEqual([]);
  });
});

describe('fallbacks when a call is missing', () => {
  it.each([404, 405])('call 2b answering %i for the first scope: by-scope for the rest of the run, domains from its targets, one notice', async (status) => {
    const { client, server, notices } = await fake(service({ autojoin: status }), 1);
    const live = await readLiveState(client, ['a', 'b', 'c'].map(team));
    expect([...live.values()].map((scope) => scope.domains)).toEqual([['a.example'], ['b.example'], ['c.example']]);
    expect(calls(server)).toEqual(['autojoin', 'by-scope', 'by-scope', 'by-scope']);
    expect(notices).toEqual([
      `call 2b (GET …/by-scope/{scopeType}/{scope}/autojoin) answered ${status}: reading with the by-scope listing (call 1b) for the rest of this run, each scope's domains taken from its listing's domain targets`,
    ]);
  });

  it('with many scopes in flight at once, still one notice, and each scope read', async () => {
    const { client, notices } = await fake(service({ autojoin: 404 }), 8);
    const live = await readLiveState(client, Array.from({ length: 20 }, (_, i) => team(`s${i}`)));
    expect(live.get('team/s13')?.domains).toEqual(['s13.example']);
    expect(notices).toHaveLength(1);
  });

  it.each([404, 410])('then by-scope answering %i: by-group, with a second notice', async (status) => {
    const { client, server, notices } = await fake(service({ autojoin: 404, 'by-scope': status }), 1);
    const live = await readLiveState(client, ['a', 'b'].map(team));
    expect(live.get('team/b')?.domains).toEqual(['b.example']);
    expect(calls(server)).toEqual(['autojoin', 'by-scope', 'by-group', 'by-group']);
    expect(notices).toEqual([expect.stringMatching(/^call 2b .* answered 404/u), `the by-scope listing answered ${status}: reading with by-group (call 1) for the rest of this run`]);
  });

  it('under --read by-scope, by-scope answering 404 falls back to by-group, still checked against call 2b', async () => {
    const { client, server, notices } = await fake(service({ 'by-scope': 404 }));
    const live = await readLiveState(client, [team('a')], { mode: 'by-scope' });
    expect(live.get('team/a')?.domains).toEqual(['a.example']);
    expect(calls(server)).toEqual(['by-scope', 'by-group', 'autojoin']);
    expect(notices).toEqual(['the by-scope listing answered 404: reading with by-group (call 1) for the rest of this run']);
  });

  it.each(['by-scope', 'by-group'] as const)('under --read %s, call 2b missing: the listing alone, its domain targets, one notice', async (mode: ReadMode) => {
    const { client, server, notices } = await fake(service({ autojoin: 405 }), 1);
    const live = await readLiveState(client, ['a', 'b'].map(team), { mode: mode });
    expect(live.get('team/b')?.domains).toEqual(['b.example']);
    expect(calls(server)).toEqual([mode, 'autojoin', mode]);
    expect(notices).toEqual([expect.stringContaining('answered 405: the listings are not checked against it for the rest of this run')]);
  });

  it('a 404 from call 2b after it answered for another scope is that scope\'s error, not a missing call', async () => {
    const { client, notices } = await fake((request, response) => {
      const { call, scope } = callOf(request);
      if (call === 'autojoin' && scope === 'b') sendJson(response, 404, { statusCode: 404, message: 'Not Found' });
      else sendJson(response, 200, call === 'autojoin' ? call2b(scope) : listing(scope));
    }, 1);
    await expect(readLiveState(client, ['a', 'b'].map(team))).rejects.toThrow(
      'reading team/b failed: call 2b (by-scope/…/autojoin) answers 404 for this scope, though it answered for others: whether the scope has autojoin cannot be told',
    );
    expect(notices).toEqual([]);
  });

  it('other statuses of call 2b are errors, with no fallback', async () => {
    const { client, server, notices } = await fake(service({ autojoin: 400 }));
    await expect(readLiveState(client, [team('a')])).rejects.toThrow(/^reading team\/a failed: \[GET\] \/api\/v1\/invitations\/by-scope\/team\/a\/autojoin: 400 /u);
    expect(calls(server)).toEqual(['autojoin']);
    expect(notices).toEqual([]);
  });
});
