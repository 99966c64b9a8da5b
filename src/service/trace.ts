/**
 * The request hook: an interceptor that reports every HTTP attempt (retries included) with its
 * method, API path, status or error code, duration and retry number. It sees the dispatch
 * options only for a `trace` entry the transport adds, so no header or body ever reaches a hook.
 */
import type { Dispatcher } from 'undici';

/** One HTTP attempt as the request hook receives it. */
export interface RequestEvent {
  method: string;
  /** The API path and its query (the same text errors name), never the host or a header. */
  path: string;
  /** The response status; absent when the attempt failed without one. */
  status?: number;
  /** The error code (e.g. `ECONNRESET`, `UND_ERR_HEADERS_TIMEOUT`) when there was no status. */
  error?: string;
  /** Milliseconds from sending to the end of the response (or the failure). */
  ms: number;
  /** 0 for the first attempt, N for the Nth retry. */
  retry: number;
}

/** Receives one event per attempt; exceptions it throws are ignored. */
export type RequestHook = (event: RequestEvent) => void;

/** Carried in the dispatch options (and kept by undici's retry handler across attempts). */
export interface RequestTrace {
  method: string;
  path: string;
  /** Attempts dispatched so far. */
  attempts: number;
}

/** @returns an interceptor calling `hook` once per attempt of a request that carries a `trace`. */
export function traceRequests(hook: RequestHook | undefined): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const trace = (opts as { trace?: RequestTrace }).trace;
    if (!hook || !trace) return dispatch(opts, handler);
    trace.attempts += 1;
    const base = { method: trace.method, path: trace.path, retry: trace.attempts - 1 };
    const startedAt = performance.now();
    const report = (result: { status?: number; error?: string }): void => {
      try {
        hook({ ...base, ...result, ms: performance.now() - startedAt });
      } catch {
        // A logging hook must never break a request.
      }
    };
    return dispatch(opts, new TracingHandler(handler, report));
  };
}

class TracingHandler implements Dispatcher.DispatchHandler {
  private status: number | undefined;

  constructor(
    private readonly next: Dispatcher.DispatchHandler,
    private readonly report: (result: { status?: number; error?: string }) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>, statusMessage?: string): void {
    this.status = status;
    this.next.onResponseStart?.(controller, status, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: Record<string, string | string[] | undefined>): void {
    this.report({ status: this.status });
    this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    const code = (error as { code?: unknown }).code;
    this.report(this.status !== undefined ? { status: this.status } : { error: typeof code === 'string' ? code : error.name });
    this.next.onResponseError?.(controller, error);
  }
}
