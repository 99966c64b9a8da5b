/** The listing walk: 0, 19, 39, …, de-duplicated, correct under both readings of `start`. */
import { describe, expect, it } from 'vitest';
import { createClient, pageStart, ServiceError } from '../../src/service/index.js';
import { useCleanup } from './support/cleanup.js';
import { startPeer, SCOPE_1, FAST_RETRY, listAll } from './support/peer.js';
import { invitations, sendJson, startHostileServer } from './support/hostile-server.js';

const closeAfterTest = useCleanup();

const SIZES = [0, 1, 19, 20, 21, 39, 40, 41, 1000];

/** Pages a correct walk requests for n items: under 'offset' the starts after 0 reach n - 1. */
function expectedStarts(n: number, mode: 'offset' | 'after'): number[] {
  const starts = [0];
  let pageLength = Math.min(n, 20);
  while (pageLength === 20) {
    const start = pageStart(starts.length);
    starts.push(start);
    const from = mode === 'after' ? start + 1 : start;
    pageLength = Math.max(0, Math.min(20, n - from));
  }
  return starts;
}

describe('pageStart', () => {
  it('gives the documented sequence 0, 19, 39, 59', () => {
    expect([0, 1, 2, 3, 50].map(pageStart)).toEqual([0, 19, 39, 59, 999]);
  });
});

describe.each(['offset', 'after'] as const)('listing walk, start read as %s', (startMode) => {
  it.each(SIZES)('reads all %i invitations exactly once', async (n) => {
    const peer = closeAfterTest(await startPeer({ startMode, generate: { invitationsPerScope: n } }));
    const pages: string[][] = [];
    for await (const page of peer.client.listInvitationPages('by-scope', SCOPE_1)) pages.push(page.map((i) => i.id));
    const ids = pages.flat();
    const stored = peer.emulator.data().scopes['team/scope-0001']?.invitations.map((i) => i.id) ?? [];
    expect(ids).toHaveLength(n);
    expect(new Set(ids).size).toBe(n);
    expect(ids).toEqual(stored);
    expect(pages.every((page) => page.length > 0)).toBe(true);
    const starts = peer.emulator.requests.map((r) => Number(new URL(r.path, 'http://x').searchParams.get('start')));
    expect(starts).toEqual(expectedStarts(n, startMode));
  });
});

describe('listing walk against misbehaving servers', () => {
  it('stops on a page with no new ids when the server ignores start', async () => {
    const server = closeAfterTest(await startHostileServer((_request, response) => sendJson(response, 200, { invitations: invitations(20) })));
    const client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456', retry: FAST_RETRY }));
    const all = await listAll(client, 'by-scope', SCOPE_1);
    expect(all.map((i) => i.id)).toEqual(invitations(20).map((i) => i.id));
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/invitations/by-scope/team/scope-0001?start=0',
      '/api/v1/invitations/by-scope/team/scope-0001?start=19',
    ]);
  });

  it('de-duplicates ids repeated within and across pages', async () => {
    const server = closeAfterTest(await startHostileServer((request, response) => {
      const start = Number(new URL(request.url ?? '', 'http://x').searchParams.get('start'));
      const page = start === 0 ? [...invitations(19), { id: 'inv-0', invitationType: 'single_use' }] : invitations(5, 'inv', 15);
      sendJson(response, 200, { invitations: page });
    }));
    const client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456' }));
    const ids = (await listAll(client, 'by-group', SCOPE_1)).map((i) => i.id);
    expect(ids).toEqual(invitations(20).map((i) => i.id));
  });

  it('fails with too-many-pages when the listing never ends', async () => {
    const server = closeAfterTest(await startHostileServer((request, response) => {
      const start = Number(new URL(request.url ?? '', 'http://x').searchParams.get('start'));
      sendJson(response, 200, { invitations: invitations(20, `p${start}`) });
    }));
    const client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456', maxPages: 7 }));
    const error = (await listAll(client, 'by-scope', SCOPE_1).catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.code).toBe('too-many-pages');
    expect(error.message).toMatch(/^\[GET\] \/api\/v1\/invitations\/by-scope\/team\/scope-0001: the listing did not end within 7 pages/u);
    expect(server.requests).toHaveLength(7);
  });

  it('stops reading when the consumer stops early', async () => {
    const server = closeAfterTest(await startHostileServer((request, response) => {
      const start = Number(new URL(request.url ?? '', 'http://x').searchParams.get('start'));
      sendJson(response, 200, { invitations: invitations(20, `p${start}`) });
    }));
    const client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456' }));
    for await (const page of client.listInvitationPages('by-scope', SCOPE_1)) {
      expect(page).toHaveLength(20);
      break;
    }
    expect(server.requests).toHaveLength(1);
  });
});
