import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { applyChanges, syncRequest, verifyStored } from '../../src/apply/apply-changes.js';
import { forEachBounded } from '../../src/concurrency.js';
import { stateDigest } from '../../src/plan/ownership.js';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createClient, type ServiceClient } from '../../src/service/client.js';
import type { Change, ChangeKind, Plan } from '../../src/plan/types.js';

const KEY = 'sk-apply-test-secret-51c0';
let emulator: Emulator | undefined;
let client: ServiceClient | undefined;
let server: Server | undefined;

afterEach(async () => {
  await client?.close();
  await emulator?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  client = emulator = server = undefined;
});

function change(kind: ChangeKind, scope: string, before: string[], after: string[], extra: Partial<Change> = {}): Change {
  return {
    kind,
    key: `team/${scope}`,
    scope,
    scopeType: 'team',
    componentId: 'cmp_test',
    before,
    after,
    reason: 'declared',
    ...extra,
  } as Change;
}

function planOf(changes: Change[]): Plan {
  return {
    formatVersion: 5,
    createdAt: '2025-01-01T00:00:00.000Z',
    target: 'http://127.0.0.1',
    owner: 'default',
    notManagedHere: [],
    drift: [],
    changes,
    scopes: changes.map((c) => ({ key: c.key, fingerprint: 'x' })),
  };
}

/** @param connections the client's --concurrency: its pacing window's ceiling, so the bound on POSTs in flight */
async function connect(options: Parameters<typeof startEmulator>[0] = {}, connections?: number): Promise<{ emulator: Emulator; client: ServiceClient }> {
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY, ...options });
  client = createClient({ baseUrl: emulator.url, apiKey: KEY, retry: { maxRetries: 0 }, connections });
  return { emulator, client };
}

function stored(em: Emulator, scope: string): { domains: string[]; active: boolean } | null {
  const autojoin = em.data().scopes[`team/${scope}`]?.autojoin;
  return autojoin ? { domains: autojoin.domains.map((d) => d.domain).sort(), active: !autojoin.invitation.deactivated } : null;
}

describe('applyChanges against the emulator', () => {
  it('POSTs the complete list per change and reports every scope applied, in plan order', async () => {
    const { emulator: em, client: c } = await connect({}, 2);
    const progress: [number, number][] = [];
    const plan = planOf([
      change('create', 'new', [], ['a.example', 'b.example'], { scopeName: 'New Team' }),
      change('update', 'upd', ['x.example'], ['x.example', 'y.example']),
      change('clear', 'clr', ['z.example'], []),
    ]);
    const report = await applyChanges(c, plan, { onProgress: (done, total) => progress.push([done, total]) });
    expect(report).toEqual({
      applied: [
        { key: 'team/new', kind: 'create', domains: ['a.example', 'b.example'] },
        { key: 'team/upd', kind: 'update', domains: ['x.example', 'y.example'] },
        { key: 'team/clr', kind: 'clear', domains: [] },
      ],
      failed: [],
      skipped: [],
    });
    expect(progress).toEqual([[1, 3], [2, 3], [3, 3]]);
    expect(stored(em, 'new')).toEqual({ domains: ['a.example', 'b.example'], active: true });
    expect(stored(em, 'upd')).toEqual({ domains: ['x.example', 'y.example'], active: true });
    expect(stored(em, 'clr')).toEqual({ domains: [], active: false });
    expect(em.data().scopes['team/new']?.scopeName).toBe('New Team');
    expect(em.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(
      Array(3).fill('POST /api/v1/invitations/autojoin 200'),
    );
  });

  it('keeps going past a scope the service rejects, with a one-line reason and no key', async () => {
    const { emulator: em, client: c } = await connect({}, 1);
    const plan = planOf([
      change('create', 'bad', [], ['acme.example', 'gmail.com']),
      change('create', 'good', [], ['good.example']),
    ]);
    const report = await applyChanges(c, plan);
    expect(report.applied).toEqual([{ key: 'team/good', kind: 'create', domains: ['good.example'] }]);
    expect(report.failed).toHaveLength(1);
    const [failure] = report.failed;
    expect(failure).toMatchObject({ key: 'team/bad', kind: 'create' });
    expect(failure?.reason).toMatch(/400/);
    expect(failure?.reason).toMatch(/gmail\.com/);
    expect(failure?.reason).not.toContain('\n');
    expect(failure?.reason).not.toContain(KEY);
    expect(stored(em, 'bad')).toBeNull();
    expect(stored(em, 'good')).toEqual({ domains: ['good.example'], active: true });
  });

  it('accepts a stored list that differs only in case and order', async () => {
    const { client: c } = await connect();
    const report = await applyChanges(c, planOf([change('create', 'c', [], ['B.example', 'a.example'])]));
    expect(report.failed).toEqual([]);
    expect(report.applied).toHaveLength(1);
  });

  it('fails a scope whose response does not hold the planned list', async () => {
    // The emulator is honest; this peer answers every POST with a list it did not get.
    server = createServer((request, response) => {
      request.resume().on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            autojoinDomains: [{ id: 'ajd_1', domain: 'old.example' }],
            invitation: { id: 'inv_1', invitationType: 'autojoin', deactivated: false },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, retry: { maxRetries: 0 } });
    const report = await applyChanges(client, planOf([change('update', 'u', ['old.example'], ['new.example'])]));
    expect(report.applied).toEqual([]);
    expect(report.failed).toEqual([
      { key: 'team/u', kind: 'update', reason: 'service stored [old.example], expected [new.example]', liveDomains: ['old.example'] },
    ]);
  });

  it('says once when the service keeps no metadata (its answers show no marker), and not when it does', async () => {
    // A deployment that drops metadata: it stores the domains and answers without the marker.
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8'))).on('end', () => {
        const { domains } = JSON.parse(body) as { domains: string[] };
        response.writeHead(200, { 'content-type': 'application/json' });
        const invitation = { id: 'inv_1', invitationType: 'autojoin', deactivated: false, metadata: null };
        response.end(JSON.stringify({ autojoinDomains: domains.map((domain, i) => ({ id: `ajd_${i}`, domain })), invitation }));
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: KEY, retry: { maxRetries: 0 } });
    const notices: string[] = [];
    const plan = planOf([change('create', 'a', [], ['a.example']), change('create', 'b', [], ['b.example'])]);
    const report = await applyChanges(client, plan, { onNotice: (message) => notices.push(message) });
    expect(report.applied).toHaveLength(2);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/shows no ownership marker .*pruning clears nothing here/u);

    const { client: honest } = await connect();
    const quiet: string[] = [];
    await applyChanges(honest, plan, { onNotice: (message) => quiet.push(message), commit: 'c0ffee' });
    expect(quiet).toEqual([]);
    expect(emulator?.data().scopes['team/a']?.autojoin?.invitation.metadata).toMatchObject({ 'autojoin-sync.owner': 'default', 'autojoin-sync.commit': 'c0ffee' });
  });

  it('reports scopes not started as skipped when the run is interrupted', async () => {
    const { emulator: em, client: c } = await connect({}, 1);
    const interrupt = new AbortController();
    const plan = planOf(['s1', 's2', 's3', 's4'].map((s) => change('create', s, [], [`${s}.example`])));
    const report = await applyChanges(c, plan, {
      signal: interrupt.signal,
      onProgress: (done) => done === 2 && interrupt.abort(),
    });
    expect(report.applied.map((a) => a.key)).toEqual(['team/s1', 'team/s2']);
    expect(report.skipped).toEqual([
      { key: 'team/s3', reason: 'not attempted: the run was interrupted' },
      { key: 'team/s4', reason: 'not attempted: the run was interrupted' },
    ]);
    expect(em.requests).toHaveLength(2);
  });

  // No clock: a gate holds every POST until 8 are in flight at once, which only a client that
  // runs them concurrently reaches (one that runs fewer at a time waits at the gate, and fails).
  it('runs POSTs concurrently up to the bound', async () => {
    const { emulator: em } = await connect({}, 8);
    const gate = await startGate(em.url, 8);
    try {
      const gated = createClient({ baseUrl: gate.url, apiKey: KEY, retry: { maxRetries: 0 }, connections: 8 });
      const plan = planOf(Array.from({ length: 8 }, (_, i) => change('create', `s${i}`, [], [`s${i}.example`])));
      const report = await applyChanges(gated, plan);
      expect(report.applied).toHaveLength(8);
      expect(gate.peak()).toBe(8);
      await gated.close();
    } finally {
      await gate.close();
    }
  });
});

/** An HTTP relay to `target` that holds POSTs until `count` are in flight, then lets them all through. */
async function startGate(target: string, count: number): Promise<{ url: string; peak: () => number; close: () => Promise<void> }> {
  let inFlight = 0;
  let peak = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const gate = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const post = request.method === 'POST';
        if (post) {
          peak = Math.max(peak, (inFlight += 1));
          if (inFlight >= count) open();
          await opened;
        }
        const headers = Object.fromEntries(['content-type', 'x-api-key', 'authorization'].flatMap((name) => (request.headers[name] ? [[name, String(request.headers[name])]] : [])));
        const answer = await fetch(`${target}${request.url ?? '/'}`, { method: request.method, headers, ...(post ? { body: Buffer.concat(chunks) } : {}) });
        const body = Buffer.from(await answer.arrayBuffer());
        if (post) inFlight -= 1;
        response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(body);
      })();
    });
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(gate.address() as AddressInfo).port}`,
    peak: () => peak,
    close: () => new Promise((resolve) => gate.close(() => resolve())),
  };
}

describe('verifyStored', () => {
  const state = (domains: string[]) => ({
    autojoinDomains: domains.map((domain, i) => ({ id: `ajd_${i}`, domain })),
    invitation: { id: 'inv_1' },
  });

  it('compares normalized, sorted, de-duplicated lists', () => {
    expect(verifyStored(state(['B.example.', 'a.example', 'a.example']), ['a.example', 'b.example'])).toBeNull();
    expect(verifyStored(state([]), [])).toBeNull();
    expect(verifyStored(state(['a.example']), [])).toBe('service stored [a.example], expected []');
    expect(verifyStored(state([]), ['a.example'])).toBe('service stored [], expected [a.example]');
  });
});

describe('syncRequest', () => {
  it('sends the complete desired list, scopeName only when known, and the ownership marker', () => {
    const digest = stateDigest({ scopeType: 'team', scope: 's', componentId: 'cmp_test', domains: ['a.example', 'b.example'] });
    expect(syncRequest(change('update', 's', ['a.example'], ['a.example', 'b.example']), { owner: 'infra', commit: 'c0ffee' })).toEqual({
      domains: ['a.example', 'b.example'],
      scope: 's',
      scopeType: 'team',
      componentId: 'cmp_test',
      metadata: { 'autojoin-sync.owner': 'infra', 'autojoin-sync.commit': 'c0ffee', 'autojoin-sync.digest': digest, 'autojoin-sync.keys': '' },
    });
    expect(syncRequest(change('clear', 's', ['a.example'], [], { scopeName: 'S' }))).toMatchObject({ domains: [], scopeName: 'S' });
  });
});

describe('forEachBounded', () => {
  it('never has more than `concurrency` calls in flight and visits every item once', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    await forEachBounded(Array.from({ length: 20 }, (_, i) => i), 3, async (item) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      // Items end out of order (a few turns of the event loop each), no clock involved.
      for (let turn = 0; turn <= item % 4; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      seen.push(item);
      inFlight--;
    });
    expect(peak).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
