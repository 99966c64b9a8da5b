/**
 * Adaptive pacing: the AIMD window as arithmetic, the pacer's in-flight bound and pool-wide
 * pause, and the client against servers that push back (the emulator's in-flight limit, a
 * Retry-After), over loopback HTTP.
 */
import { describe, expect, it } from 'vitest';
import type { Dispatcher } from 'undici';
import { AimdWindow, createPacer, MAX_PAUSE_MS, pacingInterceptor, type Permit } from '../../src/service/pacing.js';
import { readLiveState } from '../../src/service/state.js';
import { createClient } from '../../src/service/index.js';
import { useCleanup } from './support/cleanup.js';
import { startPeer, FAST_RETRY } from './support/peer.js';
import { sendJson, startHostileServer } from './support/hostile-server.js';
import { defined } from '../support/defined.js';

const closeAfterTest = useCleanup();
const answer = (latencyMs = 20) => ({ kind: 'answer', latencyMs }) as const;

describe('AimdWindow', () => {
  it('starts at its ceiling and never grows past it', () => {
    const window = new AimdWindow(8);
    for (let i = 0; i < 100; i++) window.record(answer(), window.currentRound);
    expect(window.limit).toBe(8);
  });

  it('shrinks by 15 % on a 429, once per round', () => {
    const window = new AimdWindow(64);
    const round = window.currentRound;
    for (let i = 0; i < 30; i++) window.record({ kind: 'throttled' }, round);
    expect(window.limit).toBe(54);
    window.record({ kind: 'throttled' }, window.currentRound);
    expect(window.limit).toBe(46);
  });

  it('grows by about one per window of fast answers, and never drops below 1', () => {
    const window = new AimdWindow(64);
    window.record({ kind: 'throttled' }, window.currentRound);
    expect(window.limit).toBe(54);
    for (let i = 0; i < 54; i++) window.record(answer(), window.currentRound);
    expect(window.limit).toBe(55);
    for (let i = 0; i < 40; i++) window.record({ kind: 'throttled' }, window.currentRound);
    expect(window.limit).toBe(1);
  });

  it('grows ten times slower near the window it was last throttled at, so it dwells under a limit', () => {
    const window = new AimdWindow(64);
    for (let i = 0; i < 3; i++) window.record({ kind: 'throttled' }, window.currentRound);
    expect(window.limit).toBe(39); // 64 → 54 → 46 → 39, cut last at 46
    const answersUntil = (limit: number): number => {
      let answers = 0;
      while (window.limit < limit) {
        window.record(answer(), window.currentRound);
        answers += 1;
      }
      return answers;
    };
    const fast = answersUntil(45); // far from the cut: about one window of answers per step
    expect(fast).toBeGreaterThan(200);
    expect(fast).toBeLessThan(300);
    expect(answersUntil(47)).toBeGreaterThan(10 * 45); // within one of 46: a tenth of the speed
    const past = answersUntil(48); // beyond it the limit has moved: full speed again
    expect(past).toBeLessThan(60);
  });

  it('shrinks when latency rises far above the fastest answer, not on ordinary jitter', () => {
    const window = new AimdWindow(32);
    for (let i = 0; i < 50; i++) window.record(answer(20 + (i % 5)), window.currentRound);
    window.record(answer(1), window.currentRound); // a fast 404 must not make 20 ms look slow
    for (let i = 0; i < 50; i++) window.record(answer(25), window.currentRound);
    expect(window.limit).toBe(32);
    for (let i = 0; i < 50; i++) window.record(answer(2_000), window.currentRound);
    expect(window.limit).toBeLessThan(32);
  });

  it('ignores failures (no answer says nothing about load)', () => {
    const window = new AimdWindow(4);
    window.record({ kind: 'failed' }, window.currentRound);
    expect(window.limit).toBe(4);
  });
});

describe('createPacer', () => {
  it('admits at most the window, then one more for each release', async () => {
    const pacer = createPacer(3);
    const permits: Permit[] = [];
    for (let i = 0; i < 5; i++) void pacer.acquire().then((permit) => permits.push(permit));
    await new Promise((resolve) => setImmediate(resolve));
    expect(permits).toHaveLength(3);
    const first = defined(permits[0], 'a first permit');
    first.release(answer());
    first.release(answer()); // a second release of the same permit changes nothing
    await new Promise((resolve) => setImmediate(resolve));
    expect(permits).toHaveLength(4);
    expect(pacer.inFlight).toBe(3);
  });

  it('holds every acquisition during a pause, capped at MAX_PAUSE_MS', async () => {
    let clock = 1_000;
    const pacer = createPacer(4, () => clock);
    pacer.pause(10 * MAX_PAUSE_MS);
    let admitted = false;
    void pacer.acquire().then(() => (admitted = true));
    await new Promise((resolve) => setImmediate(resolve)); // everything already due has run
    expect(admitted).toBe(false);
    clock += MAX_PAUSE_MS; // the timer set for the (capped) pause now finds it over
    pacer.pause(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(admitted).toBe(true);
  });
});

describe('pacingInterceptor: a Retry-After pauses the whole pool', () => {
  it('an attempt dispatched after a 429 with Retry-After: 2 reaches the service only once the 2 s are over (injected clock)', async () => {
    let clock = 50_000;
    const now = () => clock;
    const pacer = createPacer(4, now);
    const sent: string[] = [];
    const handlers: Dispatcher.DispatchHandler[] = [];
    const dispatch = ((opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
      sent.push(opts.path);
      handlers.push(handler);
      return true;
    }) as Dispatcher['dispatch'];
    const paced = pacingInterceptor(pacer, now)(dispatch);
    const noop: Dispatcher.DispatchHandler = {};
    const controller = {} as Dispatcher.DispatchController;
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    paced({ path: '/a', method: 'GET' }, noop);
    expect(sent).toEqual(['/a']);
    // The service throttles /a for 2 s: every attempt of the pool waits, not only /a's retry.
    handlers[0]?.onResponseStart?.(controller, 429, { 'retry-after': '2' }, 'Too Many Requests');
    handlers[0]?.onResponseEnd?.(controller, {});
    paced({ path: '/b', method: 'GET' }, noop);
    await turn();
    expect(sent).toEqual(['/a']);
    expect(pacer.waiting).toBe(1);
    clock += 2_000;
    pacer.pause(0); // what the pause's own timer does when it fires: admit what is due
    await turn();
    expect(sent).toEqual(['/a', '/b']);
  });
});

describe('createPacer: a permit at once (tryAcquire)', () => {
  it('gives one only when a place is free: within the window, outside a pause, and never ahead of a waiter', async () => {
    let clock = 1_000;
    const pacer = createPacer(2, () => clock);
    const first = defined(pacer.tryAcquire(), 'a first permit at once');
    const second = defined(pacer.tryAcquire(), 'a second permit at once');
    expect(pacer.tryAcquire()).toBeUndefined();
    expect(pacer.inFlight).toBe(2);
    let waited: Permit | undefined;
    void pacer.acquire().then((permit) => (waited = permit));
    first.release(answer()); // the place goes to the waiter, not to the next tryAcquire
    expect(pacer.tryAcquire()).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    defined(waited, 'the waiter admitted').release(answer());
    second.release(answer());
    expect(pacer.inFlight).toBe(0);
    pacer.pause(500);
    expect(pacer.tryAcquire()).toBeUndefined();
    let late = false;
    void pacer.acquire().then(() => (late = true));
    clock += 500; // the pause is over, but its waiter (whose timer has not fired yet) comes first
    expect(pacer.tryAcquire()).toBeUndefined();
    pacer.pause(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(late).toBe(true);
    expect(pacer.tryAcquire()).toBeDefined();
    expect(pacer.inFlight).toBe(2);
  });
});

describe('the client against a service that pushes back', () => {
  // Retries enough that no request is given up on a busy machine, where answers come slower than
  // the pacer's adjustments assume; what is asserted is the pacing, not the retry budget.
  const PATIENT = { ...FAST_RETRY, maxRetries: 20 };

  it('uses the whole pool: 64 connections put more than 16 requests in flight', async () => {
    // The first 16 admitted are held until all 16 are: a 17th sent meanwhile is over the limit
    // whatever the machine's load (a pool of 16 or fewer would never get a 429).
    let held = 0;
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const beforeAnswer = async (): Promise<void> => {
      held += 1;
      if (held === 16) open();
      await gate;
    };
    const peer = closeAfterTest(await startPeer({ latencyMs: 30, maxInFlight: 16, beforeAnswer, generate: { scopes: 200 } }, { connections: 64, retry: PATIENT }));
    const refs = Array.from({ length: 200 }, (_, i) => ({ scopeType: 'team', scope: `scope-${String(i + 1).padStart(4, '0')}` }));
    const live = await readLiveState(peer.client, refs, { mode: 'by-scope' });
    expect(live.size).toBe(200);
    // Over the limit of 16 only because more than 16 were in flight; the pacer then backed off.
    expect(peer.emulator.requests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
  });

  it('finds an in-flight limit below the pool size and loses no request to it', async () => {
    const peer = closeAfterTest(
      await startPeer({ latencyMs: 10, maxInFlight: 8, generate: { scopes: 300, invitationsPerScope: 25 } }, { connections: 32, retry: PATIENT }),
    );
    const refs = Array.from({ length: 300 }, (_, i) => ({ scopeType: 'team', scope: `scope-${String(i + 1).padStart(4, '0')}` }));
    const live = await readLiveState(peer.client, refs, { mode: 'by-scope' });
    expect(live.size).toBe(300);
    const throttled = peer.emulator.requests.filter((r) => r.status === 429).length;
    const served = peer.emulator.requests.length - throttled;
    expect(served).toBe(900); // two pages and call 2b per scope, none given up
    // The window the reads' pool follows has shrunk below the pool size, towards the service's limit.
    expect(peer.client.inFlightLimit).toBeLessThan(32);
    // Without pacing every round would overshoot by 24 of 32; AIMD keeps the overshoot small.
    expect(throttled).toBeLessThan(served / 4);
  });

  it('a read waiting to retry a throttled request leaves its place in the window to another read', async () => {
    const server = closeAfterTest(
      await startHostileServer((_request, response, index) => {
        if (index === 0) sendJson(response, 429, { statusCode: 429, message: 'slow down' });
        else sendJson(response, 200, { autojoinDomains: [], invitation: null });
      }),
    );
    // Two connections; the 429 shrinks the window to one, and the retry waits 300 ms.
    const client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k', connections: 2, retry: { minDelayMs: 300, maxDelayMs: 300 } }));
    const refs = ['a', 'b', 'c'].map((scope) => ({ scopeType: 'team', scope }));
    const live = await readLiveState(client, refs, { mode: 'autojoin' });
    expect(live.size).toBe(3);
    const paths = server.requests.map((seen) => seen.url);
    // The other scopes were read while the first waited; without that they wait for its retry.
    expect(paths.slice(1, 3).every((url) => !url.includes('/team/a/'))).toBe(true);
    expect(paths[3]).toContain('/team/a/');
  });
});
