import { describe, expect, it } from 'vitest';
import { generateData, type EmulatorOptions, type FaultKind } from '../../src/emulator/index.js';
import { LIST, startPeer } from './helpers.js';

const data = () => generateData({ scopes: 1, invitationsPerScope: 30, domainsPerScope: 2, seed: 1 });

async function faultSequence(options: EmulatorOptions, count: number): Promise<(FaultKind | undefined)[]> {
  const peer = await startPeer({ data: data(), slowMs: 20, ...options });
  try {
    for (let i = 0; i < count; i++) {
      await fetch(`${peer.emulator.url}${LIST}/team/scope-0001`, { headers: { 'x-api-key': peer.emulator.apiKey } })
        .then((response) => response.arrayBuffer())
        .catch(() => undefined);
    }
    return peer.emulator.requests.map((entry) => entry.fault);
  } finally {
    await peer.emulator.close();
  }
}

describe('fault injection', () => {
  it('is repeatable by seed and differs between seeds', async () => {
    const first = await faultSequence({ faultRate: 0.5, faultSeed: 42 }, 30);
    const again = await faultSequence({ faultRate: 0.5, faultSeed: 42 }, 30);
    const other = await faultSequence({ faultRate: 0.5, faultSeed: 43 }, 30);
    expect(first).toHaveLength(30);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    const faulted = first.filter((fault) => fault !== undefined).length;
    expect(faulted).toBeGreaterThan(5);
    expect(faulted).toBeLessThan(25);
  });

  it('rate 0 (the default) never faults', async () => {
    expect((await faultSequence({}, 10)).every((fault) => fault === undefined)).toBe(true);
  });

  it('draws only from the listed kinds', async () => {
    const kinds = await faultSequence({ faultRate: 1, faults: ['503', '429'], faultSeed: 5 }, 20);
    expect(new Set(kinds)).toEqual(new Set(['503', '429']));
  });

  it.each(['500', '503'] as const)('%s answers with an error body', async (kind) => {
    const peer = await startPeer({ data: data(), faultRate: 1, faults: [kind] });
    try {
      const answer = await peer.get(`${LIST}/team/scope-0001`);
      expect(answer.status).toBe(Number(kind));
      expect(answer.body).toMatchObject({ statusCode: Number(kind), message: 'Service error (injected by the emulator)' });
      expect(peer.emulator.requests).toEqual([{ method: 'GET', path: `${LIST}/team/scope-0001`, status: Number(kind), fault: kind }]);
    } finally {
      await peer.emulator.close();
    }
  });

  it('429 carries Retry-After of 0 or 1 seconds', async () => {
    const peer = await startPeer({ data: data(), faultRate: 1, faults: ['429'], faultSeed: 9 });
    try {
      const seen = new Set<string | null>();
      for (let i = 0; i < 12; i++) {
        const answer = await peer.get(`${LIST}/team/scope-0001`);
        expect(answer.status).toBe(429);
        seen.add(answer.headers.get('retry-after'));
      }
      expect(seen).toEqual(new Set(['0', '1']));
    } finally {
      await peer.emulator.close();
    }
  });

  it('reset drops the connection without an answer', async () => {
    const peer = await startPeer({ data: data(), faultRate: 1, faults: ['reset'] });
    try {
      await expect(peer.get(`${LIST}/team/scope-0001`)).rejects.toThrow('fetch failed');
      expect(peer.emulator.requests[0]).toMatchObject({ status: 0, fault: 'reset' });
    } finally {
      await peer.emulator.close();
    }
  });

  it('truncated sends a Content-Length larger than the body, then closes', async () => {
    const peer = await startPeer({ data: data(), faultRate: 1, faults: ['truncated'] });
    try {
      const response = await fetch(`${peer.emulator.url}${LIST}/team/scope-0001`, { headers: { 'x-api-key': peer.emulator.apiKey } });
      expect(response.status).toBe(200);
      expect(Number(response.headers.get('content-length'))).toBeGreaterThan(100);
      await expect(response.text()).rejects.toThrow();
      expect(peer.emulator.requests[0]).toMatchObject({ status: 200, fault: 'truncated' });
    } finally {
      await peer.emulator.close();
    }
  });

  it('slow answers in full after slowMs', async () => {
    const peer = await startPeer({ data: data(), faultRate: 1, faults: ['slow'], slowMs: 400 });
    try {
      const began = performance.now();
      const answer = await peer.get(`${LIST}/team/scope-0001`);
      expect(performance.now() - began).toBeGreaterThanOrEqual(390);
      expect(answer.status).toBe(200);
      expect((answer.body as { invitations: unknown[] }).invitations).toHaveLength(20);
      expect(peer.emulator.requests[0]).toMatchObject({ status: 200, fault: 'slow' });
    } finally {
      await peer.emulator.close();
    }
  });

  it.each(['500', '503', '429', 'reset', 'truncated'] as const)('a POST faulted with %s changes nothing', async (kind) => {
    const peer = await startPeer({ faultRate: 1, faults: [kind] });
    try {
      await peer.sync({ domains: ['a.com'], scope: 'acme' }).catch(() => undefined);
      expect(peer.emulator.data().scopes).toEqual({});
      expect(peer.emulator.data().nextId).toBe(1);
    } finally {
      await peer.emulator.close();
    }
  });

  it('a POST with the slow fault is applied (late)', async () => {
    const peer = await startPeer({ faultRate: 1, faults: ['slow'], slowMs: 50 });
    try {
      const answer = await peer.sync({ domains: ['a.com'], scope: 'acme' });
      expect(answer.status).toBe(200);
      expect(Object.keys(peer.emulator.data().scopes)).toEqual(['team/acme']);
    } finally {
      await peer.emulator.close();
    }
  });

  it('close() does not wait for a pending slow answer', async () => {
    const peer = await startPeer({ faultRate: 1, faults: ['slow'], slowMs: 20_000 });
    const pending = peer.get(`${LIST}/team/x`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await peer.emulator.close();
    // Had close() waited, the answer (due in 20 s) would have come: a response, not an error.
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('latency and listing options', () => {
  it('adds latencyMs to every answer', async () => {
    const peer = await startPeer({ latencyMs: 150 });
    try {
      const began = performance.now();
      const answer = await peer.get(`${LIST}/team/x`);
      expect(answer.status).toBe(200);
      expect(performance.now() - began).toBeGreaterThanOrEqual(145);
    } finally {
      await peer.emulator.close();
    }
  });

  it('domainTargets adds {type: "domain"} targets to the autojoin invitation, in listings and in 2b', async () => {
    const peer = await startPeer({ data: data(), domainTargets: true });
    try {
      const listing = (await peer.get(`${LIST}/team/scope-0001?start=0`)).body as { invitations: Record<string, unknown>[] };
      const autojoin = listing.invitations.find((invitation) => invitation.invitationType === 'autojoin');
      const domainTargets = [{ type: 'domain', value: 'd1.scope-0001.example' }, { type: 'domain', value: 'd2.scope-0001.example' }];
      expect(autojoin?.target).toEqual(domainTargets);
      expect((await peer.get(`${LIST}/team/scope-0001/autojoin`)).body).toMatchObject({ invitation: { target: domainTargets } });
    } finally {
      await peer.emulator.close();
    }
  });

  it('unpaginated answers all 31 invitations in one page, whatever start says', async () => {
    const peer = await startPeer({ data: data(), unpaginated: true });
    try {
      for (const start of ['', '?start=0', '?start=19']) {
        const listing = (await peer.get(`${LIST}/team/scope-0001${start}`)).body as { invitations: unknown[] };
        expect(listing.invitations).toHaveLength(31);
      }
    } finally {
      await peer.emulator.close();
    }
  });

  it('byGroup: false answers the deprecated call with 404; by-scope still answers', async () => {
    const peer = await startPeer({ data: data(), byGroup: false });
    try {
      const gone = await peer.get('/api/v1/invitations/by-group/team/scope-0001?start=0');
      expect(gone).toMatchObject({ status: 404, body: { statusCode: 404, message: 'Cannot GET /api/v1/invitations/by-group/team/scope-0001' } });
      expect((await peer.get(`${LIST}/team/scope-0001`)).status).toBe(200);
    } finally {
      await peer.emulator.close();
    }
  });
});
