/** readLiveState: the design's rule for a scope's domains, the read modes and their fallbacks, bounded concurrency, fail fast. */
import { describe, expect, it } from 'vitest';
import { createClient, LiveStateError, readLiveState, type ServiceClient } from '../../src/service/index.js';
import { readEach } from '../../src/service/state.js';
import { useCleanup } from './support/cleanup.js';
import { startPeer, FAST_RETRY } from './support/peer.js';
import { invitations, sendJson, startHostileServer, type HostileServer } from './support/hostile-server.js';

const closeAfterTest = useCleanup();

const team = (scope: string) => ({ scopeType: 'team', scope });
const REFS = ['scope-0001', 'scope-0002', 'scope-0003'].map(team);

/** The scope a request names (`/api/v1/invitations/by-…/team/SCOPE[/autojoin]`). */
const scopeOf = (url: string | undefined): string => decodeURIComponent((url ?? '').split('/')[6]?.split('?')[0] ?? '');
/** Call 2b's answer for a scope with one domain, `SCOPE.example`. */
const call2bAnswer = (scope: string) => ({
  autojoinDomains: [{ id: `ajd-${scope}`, domain: `${scope}.example` }],
  invitation: { id: `aj-${scope}`, invitationType: 'autojoin', deactivated: false },
});

describe('readLiveState against the emulator', () => {
  it('by default asks call 2b alone, one request a scope, with the facts the plan needs and no notice', async () => {
    const peer = closeAfterTest(await startPeer({ generate: { scopes: 3, invitationsPerScope: 30, domainsPerScope: 3 } }));
    const live = await readLiveState(peer.client, REFS);
    const stored = peer.emulator.data().scopes['team/scope-0002']?.autojoin?.invitation;
    expect(live.get('team/scope-0002')).toEqual({
      key: 'team/scope-0002',
      scope: 'scope-0002',
      scopeType: 'team',
      domains: ['d1.scope-0002.example', 'd2.scope-0002.example', 'd3.scope-0002.example'],
      autojoin: { invitationId: stored?.id, status: 'sent', acceptsCount: 0, modifiedAt: stored?.modifiedAt },
      scopeName: 'Scope 0002',
      metadata: null,
      componentId: 'cmp-emulator',
    });
    expect(peer.emulator.requests.map((r) => r.path).sort()).toEqual(REFS.map(({ scope }) => `/api/v1/invitations/by-scope/team/${scope}/autojoin`));
    expect(peer.notices).toEqual([]);
  });

  it('reads domains from the autojoin targets (--domain-targets) under --read by-group, each scope checked against call 2b', async () => {
    const peer = closeAfterTest(await startPeer({ domainTargets: true, generate: { scopes: 3, invitationsPerScope: 30, domainsPerScope: 3 } }));
    const progress: string[] = [];
    const live = await readLiveState(peer.client, REFS, { mode: 'by-group', onProgress: (done, total) => progress.push(`${done}/${total}`) });
    expect([...live.keys()]).toEqual(['team/scope-0001', 'team/scope-0002', 'team/scope-0003']);
    const stored = peer.emulator.data().scopes['team/scope-0002']?.autojoin?.invitation;
    expect(live.get('team/scope-0002')).toEqual({
      key: 'team/scope-0002',
      scope: 'scope-0002',
      scopeType: 'team',
      domains: ['d1.scope-0002.example', 'd2.scope-0002.example', 'd3.scope-0002.example'],
      autojoin: { invitationId: stored?.id, status: 'sent', acceptsCount: 0, modifiedAt: stored?.modifiedAt },
      scopeName: 'Scope 0002',
      metadata: null,
      componentId: 'cmp-emulator',
    });
    expect(progress).toEqual(['1/3', '2/3', '3/3']);
    // 31 invitations: pages at 0 and 19 per scope, and call 2b to check the listing against.
    expect(peer.emulator.requests.map((r) => r.path).sort()).toEqual(
      REFS.flatMap(({ scope }) => [
        ...[0, 19].map((start) => `/api/v1/invitations/by-group/team/${scope}?start=${start}`),
        `/api/v1/invitations/by-scope/team/${scope}/autojoin`,
      ]).sort(),
    );
  });

  it('asks call 2b when the listing\'s autojoin invitation has no domain targets (the real shape, the default)', async () => {
    const peer = closeAfterTest(await startPeer({ generate: { scopes: 3, invitationsPerScope: 5, domainsPerScope: 2 } }));
    const live = await readLiveState(peer.client, REFS, { mode: 'by-scope' });
    expect(live.get('team/scope-0003')?.domains).toEqual(['d1.scope-0003.example', 'd2.scope-0003.example']);
    const paths = peer.emulator.requests.map((r) => r.path);
    expect(paths.filter((p) => p.endsWith('/autojoin'))).toHaveLength(3);
    expect(paths.filter((p) => p.includes('/by-group/'))).toEqual([]);
  });

  it('gives autojoin null and domains [] for a deactivated autojoin and for none at all', async () => {
    const peer = closeAfterTest(await startPeer());
    await peer.client.syncAutojoin({ ...team('was-on'), componentId: 'c', domains: ['acme.com'] });
    await peer.client.syncAutojoin({ ...team('was-on'), componentId: 'c', domains: [] });
    await peer.client.syncAutojoin({ ...team('on'), componentId: 'c', domains: ['Acme.COM', 'b.example'] });
    const live = await readLiveState(peer.client, [team('was-on'), team('never'), team('on')]);
    expect(live.get('team/was-on')).toMatchObject({ domains: [], autojoin: null });
    expect(live.get('team/never')).toMatchObject({ domains: [], autojoin: null });
    expect(live.get('team/on')?.domains).toEqual(['acme.com', 'b.example']);
  });

  it('reads a duplicated scope once', async () => {
    const peer = closeAfterTest(await startPeer({ generate: { scopes: 1 } }));
    const live = await readLiveState(peer.client, [team('scope-0001'), team('scope-0001')]);
    expect(live.size).toBe(1);
    expect(peer.emulator.requests).toHaveLength(1);
  });

  it('reads 200 scopes through one client in a few seconds at most, one request a scope', async () => {
    const peer = closeAfterTest(await startPeer({ generate: { scopes: 200, invitationsPerScope: 25, domainsPerScope: 2 } }));
    const refs = Array.from({ length: 200 }, (_, i) => team(`scope-${String(i + 1).padStart(4, '0')}`));
    const live = await readLiveState(peer.client, refs);
    expect(live.size).toBe(200);
    expect([...live.values()].every((scope) => scope.domains.length === 2)).toBe(true);
    expect(peer.client.requestCount).toBe(200);
  });
});

describe('readLiveState concurrency and failures', () => {
  it('fails when call 2b is missing (404) and the listing shows an active autojoin without domain targets, naming the missing call', async () => {
    const server = closeAfterTest(await startHostileServer((request, response) => {
      if (request.url?.endsWith('/autojoin')) sendJson(response, 404, { statusCode: 404, message: 'Cannot GET' });
      else sendJson(response, 200, { invitations: [{ id: 'aj-1', invitationType: 'autojoin', deactivated: false }] });
    }));
    const client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456' }));
    await expect(readLiveState(client, [team('odd')])).rejects.toThrow(
      'reading team/odd failed: the by-scope listing (call 1b) shows active autojoin invitation aj-1 without domain targets, and this service does not offer call 2b (by-scope/…/autojoin), which would give its domains',
    );
  });

  let server: HostileServer | undefined;
  let client: ServiceClient | undefined;
  /** A server that answers each listing after `delayMs`, recording how many were in flight (sets `server` and `client`). */
  /** @param connections the client's --concurrency: its window's ceiling, so the bound on reads in flight */
  async function slowListingServer(delayMs: number, failScope?: string, connections?: number) {
    const stats = { inFlight: 0, maxInFlight: 0 };
    // The first answers wait until the window is full, so the count reaches it whatever the machine's load.
    let open: () => void = () => undefined;
    const full = new Promise<void>((resolve) => (open = resolve));
    server = closeAfterTest(await startHostileServer(async (request, response) => {
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      if (stats.inFlight >= (connections ?? 1)) open();
      await full;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      stats.inFlight--;
      const scope = scopeOf(request.url);
      if (scope === failScope) sendJson(response, 500, { statusCode: 500, message: 'boom' });
      else if (request.url?.endsWith('/autojoin')) sendJson(response, 200, call2bAnswer(scope));
      else sendJson(response, 200, { invitations: [...invitations(3, scope), { id: `aj-${scope}`, invitationType: 'autojoin', target: [{ type: 'domain', value: `${scope}.example` }] }] });
    }));
    client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456', retry: { ...FAST_RETRY, maxRetries: 1 }, connections }));
    return stats;
  }
  const many = Array.from({ length: 20 }, (_, i) => team(`s${i}`));

  it.each([1, 4, 16])('never has more than %i scopes in flight', async (concurrency) => {
    const stats = await slowListingServer(15, undefined, concurrency);
    const live = await readLiveState(client as ServiceClient, many);
    expect(live.size).toBe(20);
    expect(live.get('team/s7')?.domains).toEqual(['s7.example']);
    expect(stats.maxInFlight).toBe(concurrency);
  });

  it('fails fast with an error naming the scope', async () => {
    const stats = await slowListingServer(5, 's2', 2);
    const error = (await readLiveState(client as ServiceClient, many).catch((e: unknown) => e)) as LiveStateError;
    expect(error).toBeInstanceOf(LiveStateError);
    expect(error.key).toBe('team/s2');
    expect(error.message).toBe(
      'reading team/s2 failed: [GET] /api/v1/invitations/by-scope/team/s2/autojoin: 500 boom (gave up after 2 attempts)',
    );
    // It settles once the reads in flight have ended (none is left in flight), and not every
    // scope was started: the pool stopped starting reads at the failure, not at the end of the list.
    expect(stats.inFlight).toBe(0);
    expect(server?.requests.length ?? 0).toBeLessThan(20);
  });
});

describe('readEach: reading while scopes are still being found', () => {
  let server: HostileServer | undefined;
  async function listingServer(delayMs: number, connections?: number) {
    const seen: string[] = [];
    const answered: string[] = [];
    const waiting: { count: number; resolve: () => void }[] = [];
    server = closeAfterTest(await startHostileServer(async (request, response) => {
      const scope = scopeOf(request.url);
      seen.push(scope);
      for (const one of waiting.filter((wait) => seen.length >= wait.count)) one.resolve();
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      answered.push(scope);
      sendJson(response, 200, call2bAnswer(scope));
    }));
    /** Resolves once `count` requests have arrived (an event, not a clock). */
    const arrived = (count: number): Promise<void> => (seen.length >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })));
    return { seen, answered, arrived, client: closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456', connections })) };
  }
  interface Tagged {
    scopeType: string;
    scope: string;
    tag: string;
  }
  const refOf = (item: Tagged) => item;

  it('reads each item as its source yields it, before the source has ended, and yields it with its live state', async () => {
    const { seen, client, arrived } = await listingServer(5, 2);
    const seenBeforeEnd: string[] = [];
    async function* source(): AsyncGenerator<Tagged> {
      yield { ...team('b'), tag: 'first' };
      yield { ...team('a'), tag: 'second' };
      await arrived(2);
      seenBeforeEnd.push(...seen);
      await bothRead; // so the third is known only after the first two were counted
      yield { ...team('c'), tag: 'third' };
    }
    const handed: string[] = [];
    const progress: string[] = [];
    let markRead: () => void = () => undefined;
    const bothRead = new Promise<void>((resolve) => (markRead = resolve));
    const onProgress = (done: number, total: number): void => {
      progress.push(`${done}/${total}`);
      if (done === 2) markRead();
    };
    for await (const { item, live } of readEach(client, source(), refOf, { onProgress })) {
      handed.push(`${item.tag} ${live.key} ${live.domains.join(',')}`);
    }
    expect(seenBeforeEnd.sort()).toEqual(['a', 'b']);
    expect(handed.sort()).toEqual(['first team/b b.example', 'second team/a a.example', 'third team/c c.example']);
    expect(progress).toEqual(['1/2', '2/2', '3/3']);
  });

  it('drains its source without waiting for the reads, and counts every item received as known', async () => {
    const { client } = await listingServer(5, 1);
    const pulled: number[] = [];
    let read = 0;
    async function* source(): AsyncGenerator<Tagged> {
      for (let i = 0; i < 4; i++) {
        pulled.push(read);
        yield await Promise.resolve({ ...team(`s${i}`), tag: String(i) });
      }
    }
    const progress: string[] = [];
    for await (const { live } of readEach(client, source(), refOf, { onProgress: (done, total) => progress.push(`${done}/${total}`) })) {
      read += live.key === 'team/none' ? 0 : 1;
    }
    // One read in flight at most, yet every item was taken before the first read ended.
    expect(pulled).toEqual([0, 0, 0, 0]);
    expect(progress).toEqual(['1/4', '2/4', '3/4', '4/4']);
  });

  it('an empty source reads nothing', async () => {
    const { client, seen } = await listingServer(1);
    for await (const read of readEach(client, [], refOf)) expect(read).toBeUndefined();
    expect(seen).toHaveLength(0);
  });

  it('stopping the loop starts nothing more and ends once the reads in flight have ended', async () => {
    const { seen, answered, client } = await listingServer(20, 2);
    const many = Array.from({ length: 20 }, (_, i) => ({ ...team(`s${i}`), tag: '' }));
    for await (const read of readEach(client, many, refOf)) {
      expect(read.live.domains).toHaveLength(1);
      break;
    }
    // The loop ended once the reads in flight had ended (each one that arrived was answered), and few had started.
    expect(seen.length).toBeLessThanOrEqual(4);
    expect(answered.sort()).toEqual([...seen].sort());
  });

  it('a source that throws stops the reads and rethrows its error once those in flight have ended', async () => {
    const { seen, answered, arrived, client } = await listingServer(20, 4);
    async function* source(): AsyncGenerator<Tagged> {
      yield { ...team('a'), tag: '' };
      yield { ...team('b'), tag: '' };
      await arrived(2); // both reads are in flight
      throw new Error('a file failed');
    }
    const handed: string[] = [];
    await expect((async () => {
      for await (const { live } of readEach(client, source(), refOf)) handed.push(live.key);
    })()).rejects.toThrow('a file failed');
    expect(handed).toEqual([]);
    expect(seen.sort()).toEqual(['a', 'b']);
    // Rethrown once both reads had ended: each was answered.
    expect(answered.sort()).toEqual(['a', 'b']);
  });
});
