/**
 * Where commands send their requests: the service named by AUTOJOIN_BASE_URL (or the project
 * file), or, when none is set, outside CI and without an API key, an emulator started in this
 * process over `.autojoin-sync/emulator.json`, so a first run works with no setup and no
 * credentials. `--emulator` or AUTOJOIN_BASE_URL=embedded asks for that emulator anywhere.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { baseUrlString, checkBaseUrl } from '../service/base-url.js';
import { createClient, type ServiceClient } from '../service/client.js';
import type { RequestHook } from '../service/trace.js';
import { RunError, ExitCode } from './exit-codes.js';
import { PROJECT_FILE } from '../policy/index.js';
import { MAX_REQUEST_TIMEOUT_SECONDS, parseWholeNumber } from './numbers.js';
import { EMBEDDED_TARGET } from '../plan/plan.js';
import { ciVariable } from './ci.js';
import { writeStderr } from './output.js';

export interface ConnectOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Base URL from the project file (autojoin-sync.yaml); AUTOJOIN_BASE_URL wins over it. */
  baseUrl?: string;
  /** Absolute path of the project file in use, if any: named on stderr with the service's host. */
  projectFile?: string;
  /** `--request-timeout SECONDS`; AUTOJOIN_REQUEST_TIMEOUT when not given, else the client's 30 s. */
  requestTimeoutSeconds?: number;
  /** Where notices go (default: stderr). */
  notice?: (message: string) => void;
  /** Where the detail behind the one `using …` line goes, e.g. why the embedded emulator (default: notice). */
  detail?: (message: string) => void;
  /** Where else the front end takes a base URL from, named in the error when none is set. */
  baseUrlHint?: string;
  /**
   * Starts the embedded emulator when no service is configured. Front ends that never run one
   * (the action) leave it out, so their bundle carries no emulator.
   */
  startEmbedded?: EmbeddedStarter;
  /** `--emulator`: use the embedded emulator whatever else is set (in CI too). */
  emulator?: boolean;
  /** The service client's request hook (one event per HTTP attempt), e.g. the logger's --verbose lines. */
  onRequest?: RequestHook;
  /** Size of the client's connection pool: the run's `--concurrency` (default 16). */
  connections?: number;
}

/** A local emulator over a state file: its URL, the credentials it accepts, and how to stop it. */
export interface EmbeddedEmulator {
  url: string;
  apiKey: string;
  accessToken: string;
  close(): Promise<void>;
}

export type EmbeddedStarter = (dataFile: string) => Promise<EmbeddedEmulator>;

export interface Connection {
  baseUrl: string;
  apiKey?: string;
  accessToken?: string;
  /** True when the embedded emulator serves this connection. */
  embedded: boolean;
  /** What a plan records as where it was made: the base URL, or `embedded` (EMBEDDED_TARGET). */
  target: string;
  /** Stops the embedded emulator (flushing its state); nothing to do for a remote service. */
  close(): Promise<void>;
}

/** Directory (under cwd) and file of the embedded emulator's state. */
const EMBEDDED_STATE_DIR = '.autojoin-sync';
const EMBEDDED_STATE_FILE = 'emulator.json';

/**
 * Resolves the service to talk to.
 * @returns the base URL and credentials to use, and how to release them
 * @throws RunError when the base URL is refused, or when none is set and the embedded emulator
 *   may not stand in (in CI, with an API key, or in a front end without one)
 */
export async function connect(options: ConnectOptions = {}): Promise<Connection> {
  const env = options.env ?? process.env;
  const notice = options.notice ?? ((message: string) => writeStderr(`${message}\n`));
  const connection = await resolve(options, env, notice);
  notice(usingLine(options.projectFile, options.cwd ?? process.cwd(), connection));
  return connection;
}

async function resolve(options: ConnectOptions, env: NodeJS.ProcessEnv, notice: (message: string) => void): Promise<Connection> {
  const configured = nonEmpty(env.AUTOJOIN_BASE_URL) ?? nonEmpty(options.baseUrl);
  const askedFor = options.emulator === true || configured?.trim() === EMBEDDED_TARGET;
  if (configured && !askedFor) return remote(configured, env);
  if (askedFor && !options.startEmbedded) {
    throw new RunError(`the embedded emulator is only for local use (the CLI); set AUTOJOIN_BASE_URL to the Invitation Service's URL`);
  }
  const refusal = askedFor || !options.startEmbedded ? null : embeddedRefusal(env);
  if (refusal !== null || !options.startEmbedded) throw noService(options, refusal);
  return embedded(options.cwd ?? process.cwd(), options.startEmbedded, options.detail ?? notice, askedFor);
}

/**
 * Why the embedded emulator may not stand in for a missing base URL, or null when it may:
 * in CI it would "succeed" against throwaway state, and an API key was meant for a real service.
 */
function embeddedRefusal(env: NodeJS.ProcessEnv): string | null {
  const ci = ciVariable(env);
  if (ci !== null) return `this looks like CI (${ci} is set)`;
  if (nonEmpty(env.AUTOJOIN_API_KEY)) return 'AUTOJOIN_API_KEY is set, so a real service was meant';
  return null;
}

/**
 * `using autojoin-sync.yaml; service host invitations.example.com`: which file chose the service
 * and where the key goes, so a project file from an unexpected place cannot go unnoticed.
 */
function usingLine(projectFile: string | undefined, cwd: string, connection: Connection): string {
  const file = projectFile === undefined ? 'no project file' : `project file ${shownPath(cwd, projectFile)}`;
  const host = new URL(connection.baseUrl).host;
  return `using ${file}; service host ${host}${connection.embedded ? ' (embedded emulator)' : ''}`;
}

function shownPath(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

/**
 * Connects, creates the service client with the connection's credentials, runs `work`, and
 * always closes client and connection (the embedded emulator flushes its state on close).
 * @param onNotice where the client's notices go (e.g. that a listing call is deprecated)
 */
export async function withServiceClient<T>(
  options: ConnectOptions,
  onNotice: (message: string) => void,
  work: (client: ServiceClient, connection: Connection) => Promise<T>,
): Promise<T> {
  const requestTimeoutMs = requestTimeout(options.requestTimeoutSeconds, options.env ?? process.env);
  const connection = await connect(options);
  try {
    const { baseUrl, apiKey, accessToken } = connection;
    // The embedded emulator runs in this process: never send its requests through a proxy.
    const client = createClient({ baseUrl, apiKey, accessToken, onNotice, onRequest: options.onRequest, proxyFromEnv: !connection.embedded, requestTimeoutMs, connections: options.connections });
    try {
      return await work(client, connection);
    } finally {
      await client.close();
    }
  } finally {
    await connection.close();
  }
}

/** @returns the per-attempt deadline in ms: the flag, else AUTOJOIN_REQUEST_TIMEOUT, else undefined (the client's default). */
function requestTimeout(seconds: number | undefined, env: NodeJS.ProcessEnv): number | undefined {
  if (seconds !== undefined) return seconds * 1000;
  const raw = nonEmpty(env.AUTOJOIN_REQUEST_TIMEOUT);
  if (raw === undefined) return undefined;
  const parsed = parseWholeNumber(raw, 1, MAX_REQUEST_TIMEOUT_SECONDS);
  if (parsed === null) {
    throw new RunError(`AUTOJOIN_REQUEST_TIMEOUT must be a whole number of seconds from 1 to ${MAX_REQUEST_TIMEOUT_SECONDS}`, ExitCode.error);
  }
  return parsed * 1000;
}

function remote(url: string, env: NodeJS.ProcessEnv): Connection {
  let checked: URL;
  try {
    checked = checkBaseUrl(url);
  } catch (error) {
    throw new RunError((error as Error).message, ExitCode.error);
  }
  const baseUrl = baseUrlString(checked);
  return {
    baseUrl,
    target: baseUrl,
    ...credential('apiKey', env.AUTOJOIN_API_KEY),
    ...credential('accessToken', env.AUTOJOIN_ACCESS_TOKEN),
    embedded: false,
    close: () => Promise.resolve(),
  };
}

async function embedded(cwd: string, start: EmbeddedStarter, notice: (message: string) => void, askedFor: boolean): Promise<Connection> {
  const dir = join(cwd, EMBEDDED_STATE_DIR);
  await mkdir(dir, { recursive: true });
  // Local state is never meant to be committed.
  await writeFile(join(dir, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => undefined);
  const relative = `${EMBEDDED_STATE_DIR}/${EMBEDDED_STATE_FILE}`;
  let emulator;
  try {
    emulator = await start(join(dir, EMBEDDED_STATE_FILE));
  } catch (error) {
    throw new RunError(`cannot start the embedded emulator: ${(error as Error).message}`, ExitCode.error);
  }
  const why = askedFor ? 'as asked' : 'AUTOJOIN_BASE_URL is not set';
  notice(`note: ${why}; using the embedded emulator (state in ${relative})`);
  return {
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    accessToken: emulator.accessToken,
    embedded: true,
    target: EMBEDDED_TARGET,
    close: () => emulator.close(),
  };
}

/** The one rule for "no service named": an error naming where to set one, never a silent emulator. */
function noService(options: ConnectOptions, refusal: string | null): RunError {
  const where = ['AUTOJOIN_BASE_URL', ...(options.baseUrlHint ? [options.baseUrlHint] : []), `baseUrl in ${PROJECT_FILE}`].join(', or ');
  const because = refusal ? ` and ${refusal}` : '';
  const optIn = options.startEmbedded
    ? `; to use the local embedded emulator on purpose, pass --emulator or set AUTOJOIN_BASE_URL=${EMBEDDED_TARGET}`
    : '; the embedded emulator is only for local use';
  return new RunError(
    `AUTOJOIN_BASE_URL is not set${because}: no Invitation Service to talk to, and nothing was written. ` +
      `Set ${where} (with AUTOJOIN_API_KEY / AUTOJOIN_ACCESS_TOKEN)${optIn}.`,
    ExitCode.error,
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function credential<K extends 'apiKey' | 'accessToken'>(name: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined || value === '' ? {} : ({ [name]: value } as Partial<Record<K, string>>);
}
