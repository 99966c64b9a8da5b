/**
 * A total deadline for each request attempt, headers and body together. undici's own
 * `headersTimeout` and `bodyTimeout` are idle timers: a server that sends one byte a second
 * resets them forever and keeps a run (a CI job) alive for hours. This interceptor starts a
 * timer when the request is written and aborts the attempt when it fires, however the bytes
 * trickle in. It sits inside the retry interceptor, so each attempt gets its own deadline, a
 * missed deadline is retried like any timeout, and the retry budget (retry.ts) bounds the call.
 */
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { hint, worded } from '../hint.js';

/** Error code of an attempt that ran past its deadline. */
export const DEADLINE_CODE = 'AUTOJOIN_REQUEST_DEADLINE';

/** @returns an interceptor aborting every attempt still unfinished `ms` after it was sent. */
export function deadline(ms: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => dispatch(opts, new DeadlineHandler(handler, ms));
}

class DeadlineHandler implements Dispatcher.DispatchHandler {
  private timer: NodeJS.Timeout | undefined;
  private settled = false;

  constructor(
    private readonly next: Dispatcher.DispatchHandler,
    private readonly ms: number,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.timer = setTimeout(() => this.expire(controller), this.ms);
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    if (!this.settled) this.next.onResponseStart?.(controller, status, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.settled) this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    if (this.settle()) this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settle()) this.next.onResponseError?.(controller, error);
  }

  /**
   * The error is handed on before the attempt is aborted: undici's retry handler never repeats
   * a request whose controller is aborted, and a deadline is worth a retry like any timeout.
   */
  private expire(controller: Dispatcher.DispatchController): void {
    if (!this.settle()) return;
    const error = deadlineError(this.ms);
    this.next.onResponseError?.(controller, error);
    controller.abort(error);
  }

  /** @returns true the first time: exactly one of end, error and expiry goes on. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    return true;
  }
}

function deadlineError(ms: number): Error {
  const seconds = ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
  const message = worded`no complete answer within the ${seconds} request deadline (headers and body; ${hint('requestTimeout')} or AUTOJOIN_REQUEST_TIMEOUT)`;
  return Object.assign(new Error(message), { code: DEADLINE_CODE });
}
