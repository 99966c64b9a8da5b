/**
 * The Invitation Service client: one object per run, holding one keep-alive pool. Each call
 * builds its path from encoded segments, sends it through the retrying transport, and
 * accepts only a 2xx JSON body that satisfies the API contract; anything else becomes a
 * ServiceError that names the request, never the key.
 */
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import type { ScopeRef } from '../scope.js';
import { VERSION } from '../version.js';
import { hint, worded } from '../hint.js';
import { createRedactor } from '../redact.js';
import { baseUrlString, checkBaseUrl } from './base-url.js';
import { answerProblem, type AnswerShape } from './reader.js';
import { ServiceError, errorMessageOf } from './errors.js';
import { parseJsonBody, type JsonResult } from './json-body.js';
import { headerText } from './headers.js';
import { createReadSwitch, type ReadSwitch } from './read-switch.js';
import { walkPages } from './pagination.js';
import { EMAIL_PRESETS_PATH, SYNC_PATH, autojoinStatePath, formStylePresetPath, listingPath } from './paths.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import { createTransport, type Transport } from './transport.js';
import type { RequestHook } from './trace.js';
import { DEFAULT_CONCURRENCY, DEFAULT_REQUEST_TIMEOUT_SECONDS } from './defaults.js';
import type { AutojoinState, Invitation, InvitationListing, ListingCall, SyncRequest } from './types.js';

/** How to reach the service; everything but baseUrl has a default. */
export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  accessToken?: string;
  /** Test seam: the base dispatcher (the caller closes it); default a keep-alive undici Agent. Retries apply either way. */
  dispatcher?: Dispatcher;
  /** Pool size per origin (default 16). */
  connections?: number;
  /** Total deadline of each request attempt, headers and body (default 30 s); also undici's idle timeouts. */
  requestTimeoutMs?: number;
  /** Response size cap (default 8 MiB). */
  maxResponseBytes?: number;
  /** Page cap of one listing walk (default 500). */
  maxPages?: number;
  retry?: Partial<RetryPolicy>;
  /** Receives notices such as a deprecation, each at most once per client. */
  onNotice?: (message: string) => void;
  /** Called once per HTTP attempt with method, path, status, ms and retry number (e.g. for --verbose). */
  onRequest?: RequestHook;
  /** Honour HTTPS_PROXY / HTTP_PROXY / NO_PROXY (default true; never for a loopback base URL). */
  proxyFromEnv?: boolean;
}

/** The six calls of the Invitation Service, over one keep-alive pool. */
export interface ServiceClient {
  readonly baseUrl: string;
  /**
   * Walks a scope's listing (call 1 or 1b); yields per page only invitations not seen before.
   * Once one listing call answers 404 or 410, it and every later walk of this client use the
   * other one (read-switch.ts).
   */
  listInvitationPages(listing: ListingCall, ref: ScopeRef): AsyncGenerator<Invitation[]>;
  /**
   * Call 2b: `{autojoinDomains: [], invitation: null}` for a scope without autojoin; null when
   * the service answers 404 instead (older services).
   */
  getAutojoin(ref: ScopeRef): Promise<AutojoinState | null>;
  /** Call 2: sets the complete domain list of a scope. */
  syncAutojoin(body: SyncRequest): Promise<AutojoinState>;
  /** Call 3. */
  getFormStylePreset(id: string): Promise<Record<string, unknown>>;
  /** Call 4. */
  listEmailPresets(): Promise<Record<string, unknown>[]>;
  /** The fallbacks between read modes, shared by every read of this client (read-switch.ts). */
  readonly readSwitch: ReadSwitch;
  /** HTTP requests sent so far, retries included. */
  readonly requestCount: number;
  /**
   * Requests this client lets be in flight now: the AIMD window of pacing.ts, which starts at
   * `connections` (the run's --concurrency) and never exceeds it. The one bounded pool
   * (src/concurrency.ts) is this wide, so reads and writes are limited by the window alone.
   */
  readonly inFlightLimit: number;
  /**
   * How many tasks the one bounded pool may run while `running` do: one more only while the
   * window has a free place (requests in flight and waiting for a permit count against it; a
   * task waiting to retry a throttled request does not), never more than `connections`.
   */
  poolWidth(running: number): number;
  /** Closes the pool (when the client created it). */
  close(): Promise<void>;
}

const CLIENT_DEFAULTS = {
  connections: DEFAULT_CONCURRENCY,
  requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000,
  maxResponseBytes: 8 * 1024 * 1024,
  maxPages: 500,
} as const;

type Credential = 'apiKey' | 'accessToken';

interface CallSpec {
  method: 'GET' | 'POST';
  path: string;
  credential: Credential;
  shape: AnswerShape;
  body?: unknown;
  /** A 404 answer means "none" (call 2b) instead of an error. */
  notFoundIsNull?: boolean;
}

const CREDENTIAL_ENV: Record<Credential, string> = { apiKey: 'AUTOJOIN_API_KEY', accessToken: 'AUTOJOIN_ACCESS_TOKEN' };
const CREDENTIAL_USE: Record<Credential, string> = {
  apiKey: 'the invitation calls (listings, autojoin) need an API key',
  accessToken: 'the preset calls need an access token',
};

/** @returns a client for the service at `options.baseUrl` (checked with checkBaseUrl). */
export function createClient(options: ClientOptions): ServiceClient {
  const base = checkBaseUrl(options.baseUrl);
  const transport = createTransport({
    origin: base.origin,
    dispatcher: options.dispatcher,
    connections: options.connections ?? CLIENT_DEFAULTS.connections,
    timeoutMs: options.requestTimeoutMs ?? CLIENT_DEFAULTS.requestTimeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? CLIENT_DEFAULTS.maxResponseBytes,
    retry: { ...DEFAULT_RETRY_POLICY, ...definedOnly(options.retry ?? {}) },
    onRequest: options.onRequest,
    proxyFromEnv: options.proxyFromEnv,
  });
  const notice = oncePerMessage(options.onNotice);
  const readSwitch = createReadSwitch(notice);
  const call = createCaller(transport, base.pathname === '/' ? '' : base.pathname, options, (spec) => {
    // A by-group listing read because by-scope is gone is no choice to advise against.
    if (readSwitch.callFor('by-scope') === 'by-scope') notice(deprecationNotice(spec));
  });
  const listInvitationPages = (listing: ListingCall, ref: ScopeRef): AsyncGenerator<Invitation[]> =>
    walkPages(
      (start) => listingPage(call, readSwitch, listing, ref, start),
      { maxPages: options.maxPages ?? CLIENT_DEFAULTS.maxPages, method: 'GET', path: withoutQuery(listingPath(listing, ref, 0)) },
    );
  return {
    baseUrl: baseUrlString(base),
    listInvitationPages,
    getAutojoin: (ref) => callWith(call, () => ({ method: 'GET', path: autojoinStatePath(ref), credential: 'apiKey', shape: 'AutojoinState', notFoundIsNull: true })),
    syncAutojoin: (body) => call({ method: 'POST', path: SYNC_PATH, credential: 'apiKey', shape: 'AutojoinState', body }) as Promise<AutojoinState>,
    getFormStylePreset: (id) => callWith(call, () => ({ method: 'GET', path: formStylePresetPath(id), credential: 'accessToken', shape: 'FormStylePreset' })),
    listEmailPresets: () => call({ method: 'GET', path: EMAIL_PRESETS_PATH, credential: 'accessToken', shape: 'EmailPresetList' }) as Promise<Record<string, unknown>[]>,
    readSwitch,
    get requestCount() {
      return transport.requestCount;
    },
    get inFlightLimit() {
      return transport.inFlightLimit;
    },
    poolWidth: (running) => transport.poolWidth(running),
    close: () => transport.close(),
  };
}

/** @returns the call's promise (no async wrapper: fewer promises a request), rejected when its request cannot be built (an empty segment) */
function callWith<T>(call: (spec: CallSpec) => Promise<unknown>, build: () => CallSpec): Promise<T> {
  try {
    return call(build()) as Promise<T>;
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

function listingCall(listing: ListingCall, ref: ScopeRef, start: number): CallSpec {
  return { method: 'GET', path: listingPath(listing, ref, start), credential: 'apiKey', shape: 'InvitationListing' };
}

/** One listing page, by the other listing call once the one wanted is gone (read-switch.ts). */
async function listingPage(
  call: (spec: CallSpec) => Promise<unknown>,
  readSwitch: ReadSwitch,
  wanted: ListingCall,
  ref: ScopeRef,
  start: number,
): Promise<Invitation[]> {
  const listing = readSwitch.callFor(wanted);
  try {
    return ((await call(listingCall(listing, ref, start))) as InvitationListing).invitations;
  } catch (error) {
    if (!readSwitch.switchesOn(listing, error)) throw error;
    return ((await call(listingCall(readSwitch.callFor(listing), ref, start))) as InvitationListing).invitations;
  }
}

/**
 * @returns the one function every call goes through: credential check, request, deprecation
 *   notice (once per message), status handling, JSON and contract check
 */
function createCaller(
  transport: Transport,
  prefix: string,
  options: ClientOptions,
  onDeprecated: (spec: CallSpec) => void,
): (spec: CallSpec) => Promise<unknown> {
  const redact = createRedactor([options.apiKey, options.accessToken]);
  return async (spec) => {
    const secret = options[spec.credential];
    if (!secret) throw new Error(`${CREDENTIAL_ENV[spec.credential]} is not set: ${CREDENTIAL_USE[spec.credential]}`);
    const response = await transport.send({
      method: spec.method,
      wirePath: prefix + spec.path,
      path: spec.path,
      headers: requestHeaders(spec, secret),
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
    });
    if (response.headers.deprecation !== undefined) onDeprecated(spec);
    const parsed = parseJsonBody(response.body, headerText(response.headers['content-type']), response.status);
    // A write an earlier attempt may have stored unanswered has an unknown outcome, whatever the last answer said.
    const answer: Answer = { status: response.status, attempts: response.attempts, parsed, unknown: spec.method === 'POST' && response.unknown };
    if (answer.status === 404 && spec.notFoundIsNull && (response.body.length === 0 || parsed.ok)) return null;
    if (answer.status < 200 || answer.status > 299) throw httpError(spec, answer, redact);
    return checkedBody(spec, answer, redact);
  };
}

/** @returns a function that passes each distinct message on once. */
function oncePerMessage(onNotice: ((message: string) => void) | undefined): (message: string) => void {
  const given = new Set<string>();
  return (message) => {
    if (given.has(message)) return;
    given.add(message);
    onNotice?.(message);
  };
}

/** What the status and body checks need of a response: its body parsed once. */
interface Answer {
  status: number;
  attempts: number;
  parsed: JsonResult;
  /** The call is a write whose outcome is unknown (ServiceError.outcomeUnknown). */
  unknown: boolean;
}

function withoutQuery(path: string): string {
  return path.replace(/\?.*$/u, '');
}

function requestHeaders(spec: CallSpec, secret: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `autojoin-sync/${VERSION}` };
  if (spec.credential === 'apiKey') headers['x-api-key'] = secret;
  else headers.authorization = `Bearer ${secret}`;
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

function deprecationNotice(spec: CallSpec): string {
  return spec.path.startsWith('/api/v1/invitations/by-group/')
    ? worded`the by-group listing is deprecated; use ${hint('read', 'by-scope')}, or the default ${hint('read', 'autojoin')}`
    : `the service marks ${spec.method} ${withoutQuery(spec.path)} as deprecated`;
}

/** A 2xx body, checked by the tolerant reader (the fields the client uses). */
function checkedBody(spec: CallSpec, { parsed, attempts }: Answer, redact: (text: string) => string): unknown {
  const problem = parsed.ok ? answerProblem(spec.shape, parsed.value) : parsed.problem;
  if (problem !== null) {
    const detail = parsed.ok ? `invalid response: ${spec.shape} ${problem}` : `invalid response: ${problem}`;
    // A 2xx answer to a write: the service took it, but what it stored cannot be read here.
    throw new ServiceError({ code: 'invalid-response', method: spec.method, path: spec.path, detail: redact(detail), attempts, outcomeUnknown: spec.method === 'POST' });
  }
  return parsed.ok ? parsed.value : undefined;
}

function httpError(spec: CallSpec, { status, attempts, parsed, unknown }: Answer, redact: (text: string) => string): ServiceError {
  const message = parsed.ok ? errorMessageOf(parsed.value, redact) : undefined;
  const hints: string[] = [];
  const html = !parsed.ok && parsed.problem.includes('HTML');
  if (message === undefined) hints.push(STATUS_CODES[status] ?? 'error');
  if (html) hints.push('(an HTML page, not the service: check AUTOJOIN_BASE_URL)');
  if (status === 401 || status === 403) hints.push(`(check ${CREDENTIAL_ENV[spec.credential]})`);
  return new ServiceError({
    code: 'http',
    method: spec.method,
    path: spec.path,
    status,
    serviceMessage: message,
    detail: hints.join(' '),
    attempts,
    html,
    outcomeUnknown: unknown,
  });
}

/** `{ maxRetries: undefined }` keeps the default rather than erasing it. */
function definedOnly<T extends object>(partial: T): Partial<T> {
  return Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined)) as Partial<T>;
}
