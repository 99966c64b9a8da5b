/**
 * One error class for everything that can go wrong talking to the Invitation Service.
 * It names the request (method and path, never a header, so never a key) and, for HTTP
 * errors, the status and the service's own message, as in
 * `[POST] /api/v1/invitations/autojoin: 400 Domain gmail.com is a webmail domain`.
 */
import { cutText } from '../redact.js';

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
