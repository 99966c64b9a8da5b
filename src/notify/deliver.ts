/**
 * Delivery of one body to one target, through the transport every request of the run uses
 * (src/service/transport.ts: undici, HTTPS_PROXY / HTTP_PROXY / NO_PROXY, TLS with Node's CAs and
 * NODE_EXTRA_CA_CERTS, a deadline per attempt, undici's retry interceptor): never following a
 * redirect (a dispatch does not follow one), a 10 s deadline, at most 3 attempts on 429, 5xx and
 * network errors. Any 2xx is delivered (a Teams Workflows hook answers 202 before it posts).
 */
import type { Dispatcher } from 'undici';
import { VERSION } from '../version.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../service/retry.js';
import { createTransport } from '../service/transport.js';
import { ServiceError } from '../service/errors.js';
import { signingHeaders } from './sign.js';
import type { NotifyTarget } from './targets.js';

/** Deadline of one delivery, its attempts and waits included. */
export const DELIVERY_DEADLINE_MS = 10_000;
/** Attempts of one delivery, the first included. */
export const DELIVERY_ATTEMPTS = 3;

export interface DeliveryOptions {
  /** Default {@link DELIVERY_DEADLINE_MS} (test seam). */
  deadlineMs?: number;
  /** Base of the backoff between attempts (default 250 ms; test seam). */
  retryDelayMs?: number;
  /** Base dispatcher (test seam; the caller closes it); default the run's own kind of pool, proxied as the environment says. */
  dispatcher?: Dispatcher;
  /** Unix seconds of the signature's timestamp (test seam). */
  now?: () => number;
}

/** What became of one target: `notifications[]` of `--format json`. */
export interface DeliveryResult {
  to: NotifyTarget['to'];
  variable: string;
  delivered: boolean;
  attempts: number;
  /** Why not delivered: `HTTP 500`, `timeout`, … (never the URL or an answer's text). */
  problem?: string;
}

/** Statuses worth another attempt: 429 and every 5xx. */
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, ...Array.from({ length: 100 }, (_, index) => 500 + index)]);

/**
 * Sends `body` (already redacted) to `target`, signed when the target has a secret.
 * @returns the result; never throws
 */
export async function deliver(target: NotifyTarget, body: string, options: DeliveryOptions = {}): Promise<DeliveryResult> {
  const deadlineMs = options.deadlineMs ?? DELIVERY_DEADLINE_MS;
  const retry: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    maxRetries: DELIVERY_ATTEMPTS - 1,
    minDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_POLICY.minDelayMs,
    maxDelayMs: Math.max(1, Math.floor(deadlineMs / 4)),
    maxTotalMs: deadlineMs,
    statuses: RETRY_STATUSES,
  };
  const transport = createTransport({
    origin: target.url.origin,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    connections: 1,
    timeoutMs: deadlineMs,
    maxResponseBytes: 64 * 1024,
    retry,
  });
  const timestamp = Math.floor(options.now?.() ?? Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': `autojoin-sync/${VERSION}`,
    ...(target.secret === undefined ? {} : signingHeaders(target.secret, timestamp, body)),
  };
  const base = { to: target.to, variable: target.variable };
  try {
    // `path` is what an error would name: never the URL's path, which holds the token.
    const response = await transport.send({ method: 'POST', wirePath: `${target.url.pathname}${target.url.search}`, path: `(${target.variable})`, headers, body });
    const delivered = response.status >= 200 && response.status < 300;
    return { ...base, delivered, attempts: response.attempts, ...(delivered ? {} : { problem: `HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' (a redirect, not followed)' : ''}` }) };
  } catch (error) {
    const attempts = error instanceof ServiceError ? (error.attempts ?? 1) : 1;
    return { ...base, delivered: false, attempts, problem: problemOf(error) };
  } finally {
    await transport.close();
  }
}

/** A failure in a few words that never quote the URL: the error's kind and code. */
function problemOf(error: unknown): string {
  if (error instanceof ServiceError) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `${error.code} (${code})` : error.code;
  }
  return 'network';
}
