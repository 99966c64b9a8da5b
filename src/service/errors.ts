/**
 * One error class for everything that can go wrong talking to the Invitation Service.
 * It names the request (method and path, never a header, so never a key) and, for HTTP
 * errors, the status and the service's own message, as in
 * `[POST] /api/v1/invitations/autojoin: 400 Domain gmail.com is a webmail domain`.
 */
import { cutText } from '../redact.js';
import { DEADLINE_CODE } from './deadline.js';
import { mayHaveReached } from './retry.js';
import { describeTlsFailure } from './tls.js';

/**
 * What kind of failure:
 * - http: the service answered with a non-2xx status (after retries, if it was retryable)
 * - network: no complete answer (connection refused or reset, socket closed, …)
 * - timeout: no headers or no body within the per-request timeout
 * - invalid-response: a 2xx answer that is not JSON or breaks the API contract
 * - too-large: the body passed the response size cap
 * - too-many-pages: a listing did not end within the page cap
 */
export type ServiceErrorCode = 'http' | 'network' | 'timeout' | 'invalid-response' | 'too-large' | 'too-many-pages';

export interface ServiceErrorInit {
  code: ServiceErrorCode;
  method: string;
  /** The API path of the request (with its non-secret query, e.g. `?start=19`). */
  path: string;
  status?: number;
  /** The `message` of the service's error body; a list is joined with '; '. */
  serviceMessage?: string;
  /** What went wrong when there is no service message, e.g. "body is not JSON". */
  detail?: string;
  /** How many HTTP attempts the call made (retries included). */
  attempts?: number;
  /** The answer was an HTML page: a web server's or proxy's, not the service's. */
  html?: boolean;
  /** A write whose outcome is unknown (see {@link ServiceError.outcomeUnknown}). */
  outcomeUnknown?: boolean;
  cause?: unknown;
}

/** An Invitation Service call that failed; see {@link ServiceErrorCode}. */
export class ServiceError extends Error {
  readonly code: ServiceErrorCode;
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly serviceMessage?: string;
  readonly attempts?: number;
  /** The answer was an HTML page (not the service's own answer: no fallback is read into it). */
  readonly html: boolean;
  /**
   * A write (POST) that may or may not have been stored: one of its attempts ended without an
   * answer after its request was sent (a deadline, a dropped connection, a gateway's 502 or 504),
   * or the service's 2xx answer could not be read. A later read tells which; false for a failure
   * the service answered itself or a connection never made.
   */
  readonly outcomeUnknown: boolean;

  constructor(init: ServiceErrorInit) {
    super(formatMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ServiceError';
    this.code = init.code;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.serviceMessage = init.serviceMessage;
    this.attempts = init.attempts;
    this.html = init.html ?? false;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }
}

function formatMessage(init: ServiceErrorInit): string {
  const what = [init.status === undefined ? undefined : String(init.status), init.serviceMessage, init.detail]
    .filter((part) => part !== undefined && part !== '')
    .join(' ');
  const attempts = init.attempts !== undefined && init.attempts > 1 ? ` (gave up after ${init.attempts} attempts)` : '';
  return `[${init.method}] ${init.path}: ${what || init.code}${attempts}`;
}

/**
 * @param redact hides the client's secrets; applied to the whole message before it is cut
 *   (a key that straddled the cut would otherwise be shown in part)
 * @returns the service's error message as one line: a list joined with '; ', at most 500 characters.
 */
export function oneLineMessage(message: string | string[], redact: (text: string) => string = (text) => text): string {
  const whole = redact(Array.isArray(message) ? message.join('; ') : message);
  return cutText(whole.replace(/\s+/gu, ' ').trim(), 500);
}

/** Error code of the response size cap; not in any retry set, so it is never retried. */
export const TOO_LARGE = 'AUTOJOIN_RESPONSE_TOO_LARGE';

const TIMEOUT_CODES = new Set([DEADLINE_CODE, 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/**
 * A call that got no usable answer, as a ServiceError: timeout, too-large or network.
 * @param call its request, its attempts, and whether an earlier attempt of it may have reached the service (`unknown`)
 */
export function transportError(call: { method: string; path: string; attempts: number; unknown: boolean }, error: unknown): ServiceError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const kind = code === TOO_LARGE ? 'too-large' : TIMEOUT_CODES.has(String(code)) ? 'timeout' : 'network';
  const tls = describeTlsFailure(error);
  const detail = tls ?? (kind === 'network' && typeof code === 'string' ? `${message} (${code})` : message);
  const outcomeUnknown = call.method === 'POST' && (call.unknown || (tls === undefined && mayHaveReached(error as { code?: string; statusCode?: number })));
  return new ServiceError({ code: kind, method: call.method, path: call.path, detail, attempts: call.attempts, outcomeUnknown, cause: error });
}

/**
 * The service's reason in an error body: its `message` (a string, or a list of strings),
 * else its `error` (some answers carry only `{"error": "…"}`); undefined when neither is
 * text, and the caller falls back to the status text.
 */
export function errorMessageOf(value: unknown, redact: (text: string) => string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { message, error } = value as { message?: unknown; error?: unknown };
  if (typeof message === 'string' && message.trim() !== '') return oneLineMessage(message, redact);
  if (Array.isArray(message) && message.length > 0 && message.every((item) => typeof item === 'string')) return oneLineMessage(message, redact);
  if (typeof error === 'string' && error.trim() !== '') return oneLineMessage(error, redact);
  return undefined;
}
