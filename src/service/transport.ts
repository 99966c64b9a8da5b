/**
 * HTTP transport: one keep-alive undici Agent, composed with its interceptors
 * (innermost first):
 *
 *   count attempts → trace (trace.ts) → deadline (deadline.ts) → whole body (size cap) → pacing (pacing.ts) → undici retry (policy from retry.ts)
 *
 * The "whole body" interceptor is the reason retries also cover a body cut short: it holds
 * a response back until its body is complete (and under the size cap) and only then passes
 * status, body and end upward. A connection that dies mid-body therefore reaches undici's
 * retry handler as a connection error before any header, which it can simply repeat;
 * otherwise undici would try to resume with a Range request, which this API does not offer.
 * Bodies are small (8 MiB cap), so holding one back costs nothing that matters.
 */
import type { Dispatcher, interceptors } from 'undici';
import { Agent, EnvHttpProxyAgent, retryInterceptor } from './undici-parts.js';
import type { IncomingHttpHeaders } from 'node:http';
import { TOO_LARGE, transportError, type ServiceError } from './errors.js';
import { mayHaveReached, retryDelayMs, type RetryPolicy } from './retry.js';
import { deadline } from './deadline.js';
import { createPacer, pacingInterceptor } from './pacing.js';
import { traceRequests, type RequestHook, type RequestTrace } from './trace.js';
import { isLoopbackUrl } from './base-url.js';
import { headerValue } from './headers.js';

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path sent on the wire: base path prefix + API path + query. */
  wirePath: string;
  /** Path named in errors: the API path and its query (never a header). */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** HTTP attempts this call made, retries included. */
  attempts: number;
  /** An earlier attempt may have reached the service without answering (src/service/retry.ts, mayHaveReached). */
  unknown: boolean;
}

export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
  /** HTTP requests sent so far, retries included. */
  readonly requestCount: number;
  /** Requests the pacer lets be in flight now: its AIMD window, at most `connections` (pacing.ts). */
  readonly inFlightLimit: number;
  /** How many tasks a pool may run, given how many run (ServiceClient.poolWidth). */
  poolWidth(running: number): number;
  close(): Promise<void>;
}

export interface TransportOptions {
  origin: string;
  /** Base dispatcher (test seam); when given, the caller owns and closes it. */
  dispatcher?: Dispatcher;
  connections: number;
  timeoutMs: number;
  maxResponseBytes: number;
  retry: RetryPolicy;
  /** Called once per HTTP attempt (method, path, status, ms, retry number); never sees a header. */
  onRequest?: RequestHook;
  /** Honour HTTPS_PROXY / HTTP_PROXY / NO_PROXY (default true; off for the in-process emulator; never for a loopback origin). */
  proxyFromEnv?: boolean;
}

/** @returns a transport over one keep-alive pool with retries, timeouts and a size cap. */
export function createTransport(options: TransportOptions): Transport {
  const base = options.dispatcher ?? ownAgent(options);
  // close() closes only a pool made here; a caller's dispatcher stays the caller's.
  const owned = options.dispatcher ? undefined : base;
  const counter = { count: 0 };
  const pacer = createPacer(options.connections);
  const dispatcher = base.compose(
    countAttempts(counter),
    traceRequests(options.onRequest),
    deadline(options.timeoutMs),
    wholeBody(options.maxResponseBytes),
    // Inside the retry interceptor, so every attempt (retries too) waits for the pacer.
    pacingInterceptor(pacer),
    // Only statusCodes matters here (it decides which answers become retryable errors): the
    // per-request `retry` callback (retryDecider) replaces undici's own maxRetries, errorCodes
    // and methods checks, so those are not passed.
    retryInterceptor({ throwOnError: true, statusCodes: [...options.retry.statuses] }),
  );
  return {
    send: (request) => sendCall(dispatcher, options, request),
    get requestCount() {
      return counter.count;
    },
    get inFlightLimit() {
      return pacer.limit;
    },
    // A task between a throttled answer and its retry holds no permit, so it leaves its place in
    // the window to another: what is running, plus the window's free places, up to `connections`.
    poolWidth: (running) => Math.min(options.connections, running + Math.max(0, pacer.limit - pacer.inFlight - pacer.waiting)),
    close: async () => {
      await owned?.close();
    },
  };
}

/**
 * The pool: an EnvHttpProxyAgent (a plain Agent when no proxy variable is set), except for a
 * loopback origin or when told not to proxy. A loopback service (the emulator, a local relay) is
 * on this machine: sending it through HTTP_PROXY would hand the key, in clear text over
 * `http://`, to whatever the proxy is, and EnvHttpProxyAgent exempts loopback only when
 * NO_PROXY names it.
 */
function ownAgent(options: TransportOptions): Dispatcher {
  const pool = { connections: options.connections, pipelining: 1 };
  const direct = options.proxyFromEnv === false || isLoopbackUrl(options.origin);
  return direct ? new Agent(pool) : new EnvHttpProxyAgent(pool);
}

function countAttempts(counter: { count: number }): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    counter.count += 1;
    return dispatch(opts, handler);
  };
}

function wholeBody(maxBytes: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => dispatch(opts, new WholeBodyHandler(handler, maxBytes));
}

/** Holds a response back until its body is complete; aborts it past the size cap. */
class WholeBodyHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private statusMessage = '';
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(
    private readonly next: Dispatcher.DispatchHandler,
    private readonly maxBytes: number,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    Object.assign(this, { status, headers, statusMessage: statusMessage ?? '' });
    if (Number(headers['content-length'] ?? 0) > this.maxBytes) controller.abort(tooLarge(this.maxBytes));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) controller.abort(tooLarge(this.maxBytes));
    else this.chunks.push(chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    const body = Buffer.concat(this.chunks);
    try {
      this.next.onResponseStart?.(controller, this.status, this.headers, this.statusMessage);
      this.next.onResponseData?.(controller, body);
      this.next.onResponseEnd?.(controller, trailers);
    } catch (error) {
      // undici's retry handler throws here for a retryable status; the body rides along so
      // that, once retries are spent, the service's own message can still be reported.
      if (error instanceof Error) Object.assign(error, { responseBody: body });
      this.next.onResponseError?.(controller, error as Error);
    }
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.next.onResponseError?.(controller, error);
  }
}

function tooLarge(maxBytes: number): Error {
  return Object.assign(new Error(`response body exceeds ${maxBytes} bytes`), { code: TOO_LARGE });
}

/** One logical call: resolves with the final response (after retries) or rejects with a ServiceError. */
function sendCall(dispatcher: Dispatcher, options: TransportOptions, request: HttpRequest): Promise<HttpResponse> {
  const state: CallState = { attempts: 1, unknown: false };
  const retry = retryDecider(options.retry, state);
  return new Promise((resolve, reject) => {
    const collector = new Collector(request, state, resolve, reject);
    try {
      dispatcher.dispatch(
        {
          origin: options.origin,
          path: request.wirePath,
          method: request.method,
          headers: request.headers,
          body: request.body,
          // The deadline interceptor bounds headers and body together; these idle timers stay as a backstop.
          headersTimeout: 2 * options.timeoutMs,
          bodyTimeout: 2 * options.timeoutMs,
          retryOptions: { retry },
          trace: { method: request.method, path: request.path, attempts: 0 } satisfies RequestTrace,
        } as Dispatcher.DispatchOptions,
        collector,
      );
    } catch (error) {
      reject(transportError({ ...request, ...state }, error));
    }
  });
}

type RetryCallback = NonNullable<NonNullable<Parameters<typeof interceptors.retry>[0]>['retry']>;

/** What one call learns over its attempts: how many, and whether one may have reached the service unanswered. */
interface CallState {
  attempts: number;
  unknown: boolean;
}

/**
 * undici's per-request `retry` hook, deciding by retry.ts; it also records in `state` the
 * attempt count (undici's counter is 1 after the first attempt) for the error message, and
 * whether an attempt may have reached the service without an answer (a write's outcome unknown).
 */
function retryDecider(policy: RetryPolicy, state: CallState): RetryCallback {
  const startedAt = Date.now();
  return (error, { state: retryState }, callback) => {
    const failure = error as Error & { code?: string; statusCode?: number; headers?: IncomingHttpHeaders };
    state.unknown ||= mayHaveReached(failure);
    const delay = retryDelayMs(
      {
        attempt: retryState.counter,
        status: failure.code === 'UND_ERR_REQ_RETRY' ? failure.statusCode : undefined,
        code: failure.code,
        retryAfter: headerValue(failure.headers?.['retry-after']),
        elapsedMs: Date.now() - startedAt,
      },
      policy,
      Math.random(),
    );
    // The attempt about to be made counts too: a call that succeeds on its third attempt made 3.
    state.attempts = retryState.counter + (delay === null ? 0 : 1);
    if (delay === null) callback(error);
    else setTimeout(() => callback(null), delay);
  };
}

/** The outermost handler: gathers the (already complete) body and settles the call. */
class Collector implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private chunks: Buffer[] = [];

  constructor(
    private readonly request: HttpRequest,
    private readonly state: CallState,
    private readonly resolve: (response: HttpResponse) => void,
    private readonly reject: (error: ServiceError) => void,
  ) {}

  /** Present so undici treats this as a handler of its current (controller) interface. */
  onRequestStart(): void {
    // nothing to do before the response starts
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    this.status = status;
    this.headers = headers;
    this.chunks = [];
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.resolve({ status: this.status, headers: this.headers, body: Buffer.concat(this.chunks), ...this.state });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    const failure = error as Error & { code?: string; statusCode?: number; headers?: IncomingHttpHeaders; responseBody?: Buffer };
    if (failure.code === 'UND_ERR_REQ_RETRY' && failure.statusCode !== undefined) {
      // Retries spent on a retryable status: report it like any other HTTP answer.
      this.resolve({
        status: failure.statusCode,
        headers: failure.headers ?? {},
        body: failure.responseBody ?? Buffer.alloc(0),
        ...this.state,
      });
      return;
    }
    this.reject(transportError({ ...this.request, ...this.state }, error));
  }
}
