/**
 * Edges of adaptive pacing (src/service/pacing.ts) that test/service/pacing.test.ts leaves open:
 * the window's smoothing and slow threshold, a failure after a cut, a pause that ends by its own
 * timer, and what the interceptor reports to its pacer and passes to its handler (a fake pacer
 * and a fake dispatch: no network, no real waits).
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Dispatcher } from 'undici';
import { AimdWindow, createPacer, pacingInterceptor, type Pacer, type Signal } from '../../src/service/pacing.js';

const answer = (latencyMs: number) => ({ kind: 'answer', latencyMs }) as const;

describe('AimdWindow', () => {
  it('leaves the window as it is on a failure, even below its ceiling', () => {
    const window = new AimdWindow(10);
    window.record({ kind: 'throttled' }, window.currentRound);
    expect(window.limit).toBe(8);
    for (let i = 0; i < 20; i++) window.record({ kind: 'failed' }, window.currentRound);
    expect(window.limit).toBe(8);
  });

  it('smooths latency: one slow answer among fast ones is not a rise', () => {
    const window = new AimdWindow(10);
    for (let i = 0; i < 10; i++) window.record(answer(20), window.currentRound);
    window.record(answer(1_000), window.currentRound); // smoothed 118 ms, under 220
    expect(window.limit).toBe(10);
  });

  // The threshold is the larger of 3× the fastest answer and the fastest + 200 ms.
  it.each([
    [20, 220],
    [200, 600],
  ])('after a fastest answer of %i ms, takes a smoothed latency of %i ms for normal, and above it for slow', (fastest, threshold) => {
    const window = new AimdWindow(10);
    window.record(answer(fastest), window.currentRound);
    window.record({ kind: 'throttled' }, window.currentRound); // a cut forgets the smoothed latency
    window.record(answer(threshold), window.currentRound);
    expect(window.limit).toBe(8);
    window.record(answer(threshold + 1), window.currentRound); // smoothed a tenth of a millisecond above
    expect(window.limit).toBe(7);
  });
});

describe('createPacer', () => {
  it('ends a pause by its own timer, admitting the attempts that waited', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const pacer = createPacer(2);
    pacer.pause(100);
    let admitted = false;
    void pacer.acquire().then(() => (admitted = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(admitted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(admitted).toBe(true);
  });
});

/** A pacer that admits every attempt at once and records what it is told. */
function recordingPacer(): { pacer: Pacer; released: Signal[]; paused: number[] } {
  const released: Signal[] = [];
  const paused: number[] = [];
  const permit = { release: (signal: Signal) => void released.push(signal) };
  const pacer: Pacer = {
    acquire: () => Promise.resolve(permit),
    tryAcquire: () => permit,
    pause: (ms) => void paused.push(ms),
    inFlight: 0,
    waiting: 0,
    limit: 1,
  };
  return { pacer, released, paused };
}

const controller = {} as Dispatcher.DispatchController;
const options: Dispatcher.DispatchOptions = { path: '/a', method: 'GET' };

/** The interceptor over a dispatch that keeps each attempt's handler, to answer it by hand. */
function paced(pacer: Pacer, now?: () => number) {
  const handlers: Dispatcher.DispatchHandler[] = [];
  const dispatch = ((_opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
    handlers.push(handler);
    return true;
  }) as Dispatcher['dispatch'];
  const send = pacingInterceptor(pacer, now)(dispatch);
  /** Sends one attempt and returns the handler its answer goes to. */
  const attempt = (handler: Dispatcher.DispatchHandler = {}): Dispatcher.DispatchHandler => {
    expect(send(options, handler)).toBe(true);
    return handlers[handlers.length - 1] ?? {};
  };
  return attempt;
}

describe('pacingInterceptor', () => {
  it('reports an answer with its latency, a 429 as throttled, and an error as failed (throttled after a 429\'s head)', () => {
    const { pacer, released } = recordingPacer();
    let clock = 1_000;
    const attempt = paced(pacer, () => clock);
    const ok = attempt();
    ok.onRequestStart?.(controller, {}); // a handler without the callback is fine
    clock += 250;
    ok.onResponseStart?.(controller, 200, {}, 'OK');
    ok.onResponseData?.(controller, Buffer.from('{}'));
    ok.onResponseEnd?.(controller, {});
    const throttled = attempt();
    throttled.onResponseStart?.(controller, 429, {}, 'Too Many Requests');
    throttled.onResponseEnd?.(controller, {});
    attempt().onResponseError?.(controller, new Error('reset'));
    const cut = attempt();
    cut.onResponseStart?.(controller, 429, {}, 'Too Many Requests');
    cut.onResponseError?.(controller, new Error('reset'));
    expect(released).toEqual([answer(250), { kind: 'throttled' }, { kind: 'failed' }, { kind: 'throttled' }]);
  });

  it('measures latency with performance.now by default', () => {
    const { pacer, released } = recordingPacer();
    const clock = vi.spyOn(performance, 'now').mockReturnValueOnce(100).mockReturnValueOnce(400);
    onTestFinished(() => {
      clock.mockRestore();
    });
    const handler = paced(pacer)();
    handler.onResponseStart?.(controller, 200, {}, 'OK');
    handler.onResponseEnd?.(controller, {});
    expect(released).toEqual([answer(300)]);
  });

  it('pauses the pool for the Retry-After of a 429 or a 503 only', () => {
    const { pacer, paused } = recordingPacer();
    const attempt = paced(pacer, () => 0);
    const answers: [number, Record<string, string>][] = [
      [429, { 'retry-after': '2' }],
      [503, { 'retry-after': '3' }],
      [200, { 'retry-after': '4' }],
      [500, { 'retry-after': '5' }],
      [429, {}],
      [503, { 'retry-after': 'soon' }],
    ];
    for (const [status, headers] of answers) attempt().onResponseStart?.(controller, status, headers, '');
    expect(paused).toEqual([2_000, 3_000]);
  });

  it('passes every event on to the handler', () => {
    const { pacer } = recordingPacer();
    const seen: unknown[][] = [];
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: (...args) => void seen.push(['start', ...args]),
      onResponseStart: (_controller, status, headers, message) => void seen.push(['head', status, headers, message]),
      onResponseData: (_controller, chunk) => void seen.push(['data', chunk.toString()]),
      onResponseEnd: (_controller, trailers) => void seen.push(['end', trailers]),
      onResponseError: (_controller, error) => void seen.push(['error', error.message]),
    };
    const attempt = paced(pacer, () => 0);
    const ok = attempt(handler);
    ok.onRequestStart?.(controller, 'context');
    ok.onResponseStart?.(controller, 200, { a: 'b' }, 'OK');
    ok.onResponseData?.(controller, Buffer.from('body'));
    ok.onResponseEnd?.(controller, { t: 'u' });
    attempt(handler).onResponseError?.(controller, new Error('reset'));
    expect(seen).toEqual([['start', controller, 'context'], ['head', 200, { a: 'b' }, 'OK'], ['data', 'body'], ['end', { t: 'u' }], ['error', 'reset']]);
  });

  it('ends an attempt whose dispatch throws as an error: the handler hears it and the permit is released', () => {
    const { pacer, released } = recordingPacer();
    const errors: [unknown, string][] = [];
    const throwing = (() => {
      throw new Error('no socket');
    }) as Dispatcher['dispatch'];
    const send = pacingInterceptor(pacer, () => 0)(throwing);
    expect(send(options, { onResponseError: (at, error) => void errors.push([at, error.message]) })).toBe(true);
    expect(errors).toEqual([[undefined, 'no socket']]);
    expect(released).toEqual([{ kind: 'failed' }]);
  });
});
