/**
 * Retry policy as data, applied by undici's own retry interceptor (see transport.ts) through
 * the `retry` callback built here. Every call of the client is safe to repeat: the listings
 * and presets are GETs, and the autojoin POST sends the complete domain list, so sending it
 * twice leaves the same state as sending it once.
 */

/**
 * Statuses worth another attempt. 500 is included on purpose: with idempotent calls only,
 * a retry cannot do harm, and the live service's 500s are as often transient as its 503s.
 */
const RETRY_STATUSES: ReadonlySet<number> = new Set([
  429, // Too Many Requests: wait for Retry-After
  500, // Internal Server Error: possibly transient; safe because every call is idempotent
  502, // Bad Gateway: a proxy lost the upstream
  503, // Service Unavailable: overloaded or deploying
  504, // Gateway Timeout
]);

/** Transport errors worth another attempt (undici and Node error codes). */
const RETRY_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET', // the peer reset the connection
  'ECONNREFUSED', // nothing listening (yet): a restarting service
  'EPIPE', // wrote to a socket the peer had closed
  'ETIMEDOUT', // the OS gave up connecting
  'EAI_AGAIN', // temporary DNS failure
  'UND_ERR_SOCKET', // socket closed before the response was complete (also a truncated body)
  'UND_ERR_CLOSED', // a keep-alive connection closed under the request
  'UND_ERR_CONNECT_TIMEOUT', // no connection within the connect timeout
  'UND_ERR_HEADERS_TIMEOUT', // no response headers within the request timeout
  'UND_ERR_BODY_TIMEOUT', // the body stalled longer than the request timeout
  'AUTOJOIN_REQUEST_DEADLINE', // the attempt passed its total deadline (deadline.ts)
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', // body shorter than its Content-Length
]);

/** Transport errors of a connection never made: the request was not sent, so no write was stored. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'ENETDOWN', 'EHOSTUNREACH', 'EHOSTDOWN', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** A gateway's answers that it lost the service or stopped waiting for it: the service may have done the work. */
const GATEWAY_UNKNOWN_STATUSES: ReadonlySet<number> = new Set([502, 504]);

/**
 * Whether a failed attempt may have reached the service without saying what it did: no answer
 * came (a reset or closed connection, a deadline, a body cut short) once the connection was
 * made, or a gateway answered 502 or 504 for the service; a write may then have been stored.
 * The service's own answers (429, 500, 503: undici's UND_ERR_REQ_RETRY) say it was not; a
 * connection never made sent nothing.
 */
export function mayHaveReached(error: { code?: string; statusCode?: number }): boolean {
  if (error.code === 'UND_ERR_REQ_RETRY') return GATEWAY_UNKNOWN_STATUSES.has(error.statusCode ?? 0);
  // Stryker disable next-line StringLiteral: no code is listed, whatever stands in for a missing one
  return !NOT_SENT_CODES.has(error.code ?? '');
}

/** When and how long to wait before another attempt; see {@link retryDelayMs}. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 4, so at most 5 attempts). */
  maxRetries: number;
  /** Base of the exponential backoff (default 250 ms): ~250, 500, 1000, 2000 ms, with jitter. */
  minDelayMs: number;
  /** Upper bound of one backoff delay (default 8 s); a longer Retry-After is still honoured. */
  maxDelayMs: number;
  /** Total time budget of one call, attempts and waits included (default 60 s). */
  maxTotalMs: number;
  statuses: ReadonlySet<number>;
  errorCodes: ReadonlySet<string>;
}

/** At most 5 attempts within 60 s, on the statuses and error codes above. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  minDelayMs: 250,
  maxDelayMs: 8_000,
  maxTotalMs: 60_000,
  statuses: RETRY_STATUSES,
  errorCodes: RETRY_ERROR_CODES,
};

/** What the decider needs to know of a failed attempt. */
export interface FailedAttempt {
  /** 1 after the first attempt, 2 after the second, … */
  attempt: number;
  status?: number;
  code?: string;
  /** Value of the Retry-After header, if any. */
  retryAfter?: string;
  /** Milliseconds since the call started. */
  elapsedMs: number;
}

/**
 * Pure retry decision.
 * @param random a number in [0, 1) for the jitter
 * @returns the delay in ms before the next attempt, or null to give up
 */
export function retryDelayMs(failure: FailedAttempt, policy: RetryPolicy, random: number): number | null {
  if (failure.attempt > policy.maxRetries) return null;
  const retryable =
    // Stryker disable next-line StringLiteral: no code is listed, whatever stands in for a missing one
    failure.status !== undefined ? policy.statuses.has(failure.status) : policy.errorCodes.has(failure.code ?? '');
  if (!retryable) return null;
  const backoff = quickFirstRetry(failure) ? policy.minDelayMs / QUICK_RETRY_DIVISOR : Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (failure.attempt - 1));
  // "Equal jitter": half the backoff fixed, half random, so concurrent clients spread out.
  const jittered = backoff / 2 + (backoff / 2) * random;
  const delay = Math.max(jittered, parseRetryAfterMs(failure.retryAfter) ?? 0);
  // A wait that would end past the budget is not worth starting.
  return failure.elapsedMs + delay > policy.maxTotalMs ? null : Math.round(delay);
}

/** How much shorter than the base delay the quick first retry of a bare 429 waits. */
const QUICK_RETRY_DIVISOR = 8;

/**
 * A 429 without Retry-After has already shrunk the pacing window (pacing.ts), which is the
 * backoff that matters: its first retry waits about a round trip for its place in the smaller
 * window, not a full backoff step, so one refused request does not stall its scope at the end of a
 * run. Later retries, and every other status, back off as usual.
 */
function quickFirstRetry(failure: FailedAttempt): boolean {
  return failure.status === 429 && failure.retryAfter === undefined && failure.attempt === 1;
}

/**
 * Parses Retry-After: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * @returns milliseconds to wait, or undefined when absent or unreadable
 */
export function parseRetryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/u.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
