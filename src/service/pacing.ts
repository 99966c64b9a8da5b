/**
 * Adaptive pacing: how many requests the client keeps in flight, like TCP's congestion window.
 *
 * The window starts at the run's `--concurrency` (the pool size, and its ceiling) and follows
 * AIMD: every answer that is neither throttled nor slow adds 1/window (so +1 per window's worth
 * of answers, about +1 per round trip); a 429, or a smoothed latency far above the fastest seen,
 * multiplies it by 0.85. Only one decrease counts per round: answers to requests sent before the
 * last decrease say nothing new about the smaller window, so they cannot shrink it again.
 *
 * Two choices differ from TCP's halving, because a 429 is a cheap and precise signal (answered at
 * once, it says "one too many in flight"), unlike a lost packet: the decrease is gentle, and,
 * as in CUBIC, growth slows to a tenth near the window that was last throttled, so the window
 * dwells just under a service's in-flight limit instead of sawing between 75 % and 100 % of it.
 * Above that window it grows at full speed again: the limit has moved.
 *
 * A `Retry-After` on any answer pauses the whole pool, not only the request that got it: every
 * attempt (first tries and retries alike) waits until the pause is over. Pauses are capped, so a
 * hostile header cannot stall a run for ever.
 *
 * `AimdWindow` is the pure arithmetic; `createPacer` adds the waiting line and the clock, and
 * `pacingInterceptor` plugs it into the undici dispatch chain (one permit per attempt). The window
 * is the only limit on requests in flight: the one bounded pool (src/concurrency.ts) that runs
 * every read and write is as wide as `Pacer.limit`, so the waiting line holds an attempt only
 * during a pause, a retry, or just after the window shrank.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { parseRetryAfterMs } from './retry.js';
import { headerValue } from './headers.js';

/** Multiplicative decrease: the window keeps 85 % of itself on a congestion signal. */
const DECREASE_FACTOR = 0.85;
/** Growth per round trip within one request of the window last throttled (1 elsewhere). */
const PROBE_GROWTH = 0.1;
/** Latency counts as rising when the smoothed latency exceeds this multiple of the fastest answer… */
const SLOW_FACTOR = 3;
/** …and the fastest answer by this much, so that a very fast baseline (a 1 ms 404) cannot trip it. */
const SLOW_MARGIN_MS = 200;
/** Weight of the newest sample in the smoothed latency. */
const SMOOTHING = 0.1;
/** Longest pool-wide pause a Retry-After can impose. */
export const MAX_PAUSE_MS = 60_000;

/** What one attempt's answer tells the window. */
export type Signal = { kind: 'answer'; latencyMs: number } | { kind: 'throttled' } | { kind: 'failed' };

/** The congestion window (pure): AIMD over answers, one decrease per round. */
export class AimdWindow {
  private size: number;
  private round = 0;
  /** The limit a congestion signal last cut; infinitely far before the first. */
  private cutAt = Number.POSITIVE_INFINITY;
  private fastestMs = Number.POSITIVE_INFINITY;
  private smoothedMs: number | undefined;

  constructor(private readonly max: number) {
    this.size = max;
  }

  /** Requests allowed in flight now: a whole number from 1 to max. */
  get limit(): number {
    return Math.max(1, Math.floor(this.size));
  }

  /** The round a request sent now belongs to; pass it back to {@link record}. */
  get currentRound(): number {
    return this.round;
  }

  /** Updates the window with the outcome of an attempt sent in round `sentIn`. */
  record(signal: Signal, sentIn: number): void {
    if (signal.kind === 'failed') return;
    if (signal.kind === 'throttled') { this.decrease(sentIn); return; }
    this.fastestMs = Math.min(this.fastestMs, signal.latencyMs);
    this.smoothedMs = this.smoothedMs === undefined ? signal.latencyMs : this.smoothedMs + SMOOTHING * (signal.latencyMs - this.smoothedMs);
    if (this.smoothedMs > Math.max(SLOW_FACTOR * this.fastestMs, this.fastestMs + SLOW_MARGIN_MS)) {
      this.decrease(sentIn);
      return;
    }
    const nearCut = Math.abs(this.size - this.cutAt) < 1;
    this.size = Math.min(this.max, this.size + (nearCut ? PROBE_GROWTH : 1) / this.size);
  }

  private decrease(sentIn: number): void {
    if (sentIn < this.round) return;
    this.round += 1;
    this.cutAt = this.limit;
    this.size = Math.max(1, this.size * DECREASE_FACTOR);
    // The slow samples that caused this decrease should not cause the next one too.
    this.smoothedMs = undefined;
  }
}

/** One attempt's right to be in flight; release it exactly once with what happened. */
export interface Permit {
  release(signal: Signal): void;
}

/** Hands out permits within the window and holds every attempt during a pool-wide pause. */
export interface Pacer {
  acquire(): Promise<Permit>;
  /** A permit at once when one is free (no pause, nobody waiting, room in the window); else undefined, and {@link acquire} waits. */
  tryAcquire(): Permit | undefined;
  /** Pauses every attempt not yet sent for `ms` (capped at MAX_PAUSE_MS), e.g. from a Retry-After. */
  pause(ms: number): void;
  /** Requests in flight now. */
  readonly inFlight: number;
  /** Attempts waiting for a permit (a pause, or the window just shrank). */
  readonly waiting: number;
  /** The window's current limit. */
  readonly limit: number;
}

/** @returns a pacer allowing at most `max` attempts in flight, fewer while the service pushes back. */
export function createPacer(max: number, now: () => number = Date.now): Pacer {
  const window = new AimdWindow(max);
  const waiting: (() => void)[] = [];
  let inFlight = 0;
  let pausedUntil = 0;
  let timer: NodeJS.Timeout | undefined;

  const admit = (): void => {
    const wait = pausedUntil - now();
    if (wait > 0) {
      timer ??= setTimeout(() => {
        timer = undefined;
        admit();
      }, wait);
      return;
    }
    // Each waiter takes its permit, and with it its place in flight, as it is called.
    // Stryker disable next-line OptionalChaining: the loop's guard says a waiter is there
    while (waiting.length > 0 && inFlight < window.limit) waiting.shift()?.();
  };
  const permit = (): Permit => {
    inFlight += 1;
    const sentIn = window.currentRound;
    let released = false;
    return {
      release(signal) {
        if (released) return;
        released = true;
        inFlight -= 1;
        window.record(signal, sentIn);
        admit();
      },
    };
  };
  return {
    acquire() {
      return new Promise<Permit>((resolve) => {
        waiting.push(() => resolve(permit()));
        admit();
      });
    },
    tryAcquire: () => (waiting.length > 0 || inFlight >= window.limit || pausedUntil > now() ? undefined : permit()),
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, now() + Math.min(Math.max(0, ms), MAX_PAUSE_MS));
      clearTimeout(timer);
      timer = undefined;
      admit();
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiting.length;
    },
    get limit() {
      return window.limit;
    },
  };
}

/**
 * @returns an undici interceptor that sends each attempt only once the pacer admits it, and
 *   reports its answer (status, Retry-After, latency) back. Place it inside the retry
 *   interceptor, so that retries are paced too.
 */
export function pacingInterceptor(pacer: Pacer, now: () => number = () => performance.now()): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const send = (permit: Permit): void => {
      const paced = new PacedHandler(handler, permit, pacer, now);
      try {
        dispatch(opts, paced);
      } catch (error) {
        paced.onResponseError(undefined, error as Error);
      }
    };
    // A free place is taken at once: no promise an attempt when nothing has to wait.
    const free = pacer.tryAcquire();
    if (free) send(free);
    else void pacer.acquire().then(send);
    return true;
  };
}

/** Passes everything through; on the answer's end (or error) releases the permit with its signal. */
class PacedHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private readonly startedAt: number;

  constructor(
    private readonly next: Dispatcher.DispatchHandler,
    private readonly permit: Permit,
    private readonly pacer: Pacer,
    private readonly now: () => number,
  ) {
    this.startedAt = now();
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    this.status = status;
    const retryAfter = parseRetryAfterMs(headerValue(headers['retry-after']));
    if (retryAfter !== undefined && (status === 429 || status === 503)) this.pacer.pause(retryAfter);
    this.next.onResponseStart?.(controller, status, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    this.permit.release(this.status === 429 ? { kind: 'throttled' } : { kind: 'answer', latencyMs: this.now() - this.startedAt });
    this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.permit.release(this.status === 429 ? { kind: 'throttled' } : { kind: 'failed' });
    this.next.onResponseError?.(controller as Dispatcher.DispatchController, error);
  }
}
