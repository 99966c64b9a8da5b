/**
 * The emulator's HTTP server. Each request goes through one pipeline: draw a fault (on arrival,
 * so the seeded sequence follows arrival order), wait out the configured latency (counted from
 * arrival), then either answer with the fault or route, authenticate and handle it (a read is
 * handled on arrival, within its latency). A handler returns its state change as
 * `change` instead of making it, so a faulted request changes nothing; a change is made and
 * journaled before the answer is sent, or, when the journal cannot record it, taken back and
 * answered 500: the state a client sees is always the one a restart would load.
 */
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { checkAuth } from './auth.js';
import { createFaultSource, type FaultDraw, type FaultSource } from './faults.js';
import { createInFlightLimit } from './in-flight.js';
import { ROUTES } from './handlers.js';
import { errorReply, HttpError, httpErrorReply, sendReply, sendTruncated, type Reply } from './http-io.js';
import { findRoute, type EmulatorState, type Handled } from './routes.js';
import { emptyData } from './seed.js';
import { createSaver, loadDataFile, removeStaleTempFiles, type Saver } from './store.js';
import { createJournal, type Journal } from './journal.js';
import { lockDataFile, type FileLock } from './lock.js';
import type { Emulator, EmulatorOptions, EmulatorScope, RequestLogEntry } from './types.js';
import type { ScopeKey } from '../scope.js';

/** The local key the emulator accepts when none is configured (public: it guards nothing). */
export const DEFAULT_API_KEY = 'local-emulator-key';
/** The local bearer token the emulator accepts when none is configured. */
export const DEFAULT_ACCESS_TOKEN = 'local-emulator-token';

const DEFAULT_SLOW_MS = 3000;

interface Runtime {
  state: EmulatorState;
  secrets: { apiKey: string; accessToken: string };
  options: EmulatorOptions;
  faults: FaultSource;
  /** Rewrites the whole data file: only to compact the journal, on start and on stop. */
  saver: Saver;
  journal: Journal;
  /** Changes made in memory whose journal lines are not yet on disk, oldest first: what a failed append takes back. */
  unsaved: Unsaved[];
  requests: RequestLogEntry[];
  /** Aborted on close, so pending latency and slow faults stop waiting. */
  closing: AbortController;
  /** Counts a request in flight, or says it is over options.maxInFlight. */
  admit: (response: ServerResponse) => boolean;
}

/**
 * Starts an emulator of the Invitation Service on 127.0.0.1.
 * @param options port (0 = free port), data file, credentials and test knobs (latency, faults, start mode)
 * @returns the running emulator; call close() when done
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  // Held from before the state is loaded until after its last write (lock.ts).
  const lock = options.dataFile ? await lockDataFile(options.dataFile, { onWait: options.onLockWait }) : null;
  try {
    return await startLocked(options, lock);
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

async function startLocked(options: EmulatorOptions, lock: FileLock | null): Promise<Emulator> {
  if (options.dataFile) await removeStaleTempFiles(options.dataFile);
  const stored = options.dataFile ? await loadDataFile(options.dataFile) : null;
  const data = stored ?? (options.data ? structuredClone(options.data) : emptyData());
  const runtime: Runtime = {
    state: {
      data,
      startMode: options.startMode ?? 'offset',
      domainTargets: options.domainTargets ?? false,
      unpaginated: options.unpaginated ?? false,
      byGroup: options.byGroup ?? true,
      groups: options.groups ?? true,
      postMetadata: options.postMetadata ?? 'keep',
      now: () => new Date(),
    },
    secrets: { apiKey: options.apiKey ?? DEFAULT_API_KEY, accessToken: options.accessToken ?? DEFAULT_ACCESS_TOKEN },
    options,
    faults: createFaultSource({ rate: options.faultRate, kinds: options.faults, seed: options.faultSeed }),
    saver: createSaver(options.dataFile, () => JSON.stringify(data)),
    journal: createJournal(options.dataFile),
    unsaved: [],
    requests: [],
    closing: new AbortController(),
    admit: createInFlightLimit(options.maxInFlight),
  };
  // Every request waiting out its latency listens on this signal; hundreds may wait at once.
  setMaxListeners(0, runtime.closing.signal);
  // Written at once even when just loaded (this also compacts a journal left by a killed run):
  // an unwritable data file fails here, not on the first sync.
  await runtime.saver.save();
  await runtime.journal.clear();
  const server = createServer({ keepAlive: true }, (request, response) => {
    serve(runtime, request, response).catch((error: unknown) => failSafe(runtime, request, response, error));
  });
  const port = await listen(server, options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    apiKey: runtime.secrets.apiKey,
    accessToken: runtime.secrets.accessToken,
    requests: runtime.requests,
    data: () => structuredClone(data),
    close: () => close(server, runtime).finally(() => lock?.release()),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function close(server: Server, runtime: Runtime): Promise<void> {
  runtime.closing.abort();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
  try {
    await runtime.saver.save();
    await runtime.journal.clear();
  } catch {
    // Not compacted: the journal still holds every acknowledged write, and the next start replays it.
  }
}

async function serve(runtime: Runtime, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (!runtime.admit(response)) {
    logRequest(runtime, request, 429, null);
    sendReply(response, errorReply(429, `Too many requests in flight (limit ${String(runtime.options.maxInFlight)})`));
    return;
  }
  const fault = runtime.faults.next();
  const log = (status: number) => logRequest(runtime, request, status, fault);
  const answerAt = performance.now() + (runtime.options.latencyMs ?? 0);
  // A read is answered from the state it arrived to, so its handling is part of its latency, not
  // added to it. A write is handled when it is answered, so concurrent writes see each other.
  const early = !fault && request.method === 'GET' ? await handle(runtime, request) : undefined;
  await wait(runtime, answerAt - performance.now());
  await runtime.options.beforeAnswer?.({ method: request.method ?? 'GET', path: request.url ?? '/' });
  if (fault && answerFault(fault, response, log)) return;
  if (fault?.kind === 'slow') await wait(runtime, runtime.options.slowMs ?? DEFAULT_SLOW_MS);
  if (runtime.closing.signal.aborted) return;
  const handled = early ?? (await handle(runtime, request));
  if (fault?.kind === 'truncated') {
    log(handled.reply.status);
    sendTruncated(response, handled.reply);
    return;
  }
  const reply = await commit(runtime, handled);
  log(reply.status);
  sendReply(response, reply);
}

/** Answers the faults that replace the whole answer; @returns false for those that only alter it. */
function answerFault(fault: FaultDraw, response: ServerResponse, log: (status: number) => void): boolean {
  if (fault.kind === 'reset') {
    log(0);
    response.socket?.resetAndDestroy();
    return true;
  }
  const reply = faultReply(fault);
  if (!reply) return false;
  log(reply.status);
  sendReply(response, reply);
  return true;
}

/** @returns the error answer of a 500, 503 or 429 fault; null for the other kinds. */
function faultReply(fault: FaultDraw): Reply | null {
  const injected = 'injected by the emulator';
  switch (fault.kind) {
    case '500':
    case '503':
      return errorReply(Number(fault.kind), `Service error (${injected})`);
    case '429':
      return errorReply(429, `Too many requests (${injected})`, { 'retry-after': String(fault.retryAfterSeconds) });
    default:
      return null;
  }
}

async function handle(runtime: Runtime, request: IncomingMessage): Promise<Handled> {
  try {
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
    const query = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
    const { route, params } = findRoute(ROUTES, request.method ?? 'GET', rawPath);
    checkAuth(route.auth, request.headers, runtime.secrets);
    return await route.handle({ params, query, request, state: runtime.state });
  } catch (error) {
    if (error instanceof HttpError) return { reply: httpErrorReply(error) };
    throw error;
  }
}

/** A change made in memory and not yet journaled: the records it replaced (undefined: none) and the id counter before it. */
interface Unsaved {
  replaced: [ScopeKey, EmulatorScope | undefined][];
  nextId: number;
}

/**
 * Makes the handler's state change and journals it. When the journal cannot record it, the change
 * is taken back, with every change made after it (their records were made on top of it, and the
 * journal fails them too), and the request is answered 500.
 */
async function commit(runtime: Runtime, handled: Handled): Promise<Reply> {
  const { change } = handled;
  if (!change) return handled.reply;
  const { data } = runtime.state;
  const unsaved: Unsaved = { replaced: change.keys.map((key) => [key, Object.hasOwn(data.scopes, key) ? data.scopes[key] : undefined]), nextId: data.nextId };
  runtime.unsaved.push(unsaved);
  change.apply();
  try {
    await runtime.journal.append(change.keys.map((key) => ({ key, scope: data.scopes[key] ?? null, nextId: data.nextId })));
    const at = runtime.unsaved.indexOf(unsaved);
    if (at >= 0) runtime.unsaved.splice(at, 1);
    return handled.reply;
  } catch (error) {
    takeBackUnsaved(runtime);
    return errorReply(500, `Could not save the emulator state, so this change was not made: ${(error as Error).message}`);
  }
}

/** Puts back what every unsaved change replaced, newest first: the state is the journaled one again. */
function takeBackUnsaved(runtime: Runtime): void {
  const { data } = runtime.state;
  for (const unsaved of runtime.unsaved.reverse()) {
    for (const [key, scope] of unsaved.replaced) {
      if (scope === undefined) delete data.scopes[key];
      else data.scopes[key] = scope;
    }
    data.nextId = unsaved.nextId;
  }
  runtime.unsaved = [];
}

function wait(runtime: Runtime, ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return delay(ms, undefined, { signal: runtime.closing.signal }).catch(() => undefined);
}

function logRequest(runtime: Runtime, request: IncomingMessage, status: number, fault: FaultDraw | null): void {
  const entry: RequestLogEntry = { method: request.method ?? '', path: request.url ?? '', status };
  if (fault) entry.fault = fault.kind;
  runtime.requests.push(entry);
}

/** Last resort for a bug in a handler: answer 500 rather than leave the client hanging. */
function failSafe(runtime: Runtime, request: IncomingMessage, response: ServerResponse, error: unknown): void {
  logRequest(runtime, request, 500, null);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  sendReply(response, errorReply(500, `Emulator error: ${(error as Error).message}`));
}
