/**
 * Where commands send their requests: the service the run's settings name (src/run/settings.ts),
 * or, when none is set, outside CI and without an API key, an emulator started in this process
 * over `.autojoin-sync/emulator.json` at the repository root of the paths (src/run/place.ts): one
 * state per run, so the teams of a monorepo meet one service, and a first run works with no setup
 * and no credentials. `--emulator` or AUTOJOIN_BASE_URL=embedded asks for
 * that emulator anywhere.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { baseUrlString, checkBaseUrl } from '../service/base-url.js';
import { createClient, type ServiceClient } from '../service/client.js';
import type { RequestHook } from '../service/trace.js';
import { RunError, ExitCode } from '../output/exit-codes.js';
import { EMBEDDED_TARGET } from '../plan/plan-builder.js';
import { relativePosix } from '../relative-path.js';
import { writeStderr } from '../output/sinks.js';
import { hint, projectFileName, worded } from '../hint.js';
import type { RunSettings } from '../run/settings.js';

/** What connecting needs of the run's settings. */
export type ConnectSettings = Pick<
  RunSettings,
  'base' | 'stateDir' | 'baseUrl' | 'baseUrlFrom' | 'projectBaseUrlIgnored' | 'apiKey' | 'apiKeyFrom' | 'accessToken' | 'emulator' | 'requestTimeoutMs' | 'concurrency' | 'ci'
> & { project: Pick<RunSettings['project'], 'file'>; targetNotice?: string; projects?: readonly Pick<RunSettings['projects'][number], 'projectFile'>[] };

export interface ConnectOptions {
  settings: ConnectSettings;
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
  /** The service client's request hook (one event per HTTP attempt), e.g. the logger's --verbose lines. */
  onRequest?: RequestHook;
  /** Where the run was started (the CLI's working directory): the preamble names its files from there, paths to copy; default: the run's base. */
  cwd?: string;
}

/** A local emulator over a state file: its URL, the credentials it accepts, and how to stop it. */
export interface EmbeddedEmulator {
  url: string;
  apiKey: string;
  accessToken: string;
  close(): Promise<void>;
}

/** Starts the embedded emulator over `dataFile`; `notice` is told when it waits for another run using that file. */
export type EmbeddedStarter = (dataFile: string, notice?: (message: string) => void) => Promise<EmbeddedEmulator>;

export interface Connection {
  baseUrl: string;
  apiKey?: string;
  accessToken?: string;
  /** True when the embedded emulator serves this connection. */
  embedded: boolean;
  /** The embedded emulator's state file (absolute), named in the preamble relative to where the run started. */
  stateFile?: string;
  /** What a plan records as where it was made: the base URL, or `embedded` (EMBEDDED_TARGET). */
  target: string;
  /** Stops the embedded emulator (flushing its state); nothing to do for a remote service. */
  close(): Promise<void>;
}

/** File of the embedded emulator's state, in the run's state directory. */
const EMBEDDED_STATE_FILE = 'emulator.json';

/**
 * Resolves the service to talk to.
 * @returns the base URL and credentials to use, and how to release them
 * @throws RunError when the base URL is refused, or when none is set and the embedded emulator
 *   may not stand in (in CI, with an API key, or in a front end without one)
 */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const notice = options.notice ?? ((message: string) => writeStderr(`${message}\n`));
  if (options.settings.targetNotice !== undefined) notice(options.settings.targetNotice);
  const connection = await resolve(options, notice);
  notice(usingLine(options.settings, connection, options.cwd ?? options.settings.base));
  return connection;
}

async function resolve(options: ConnectOptions, notice: (message: string) => void): Promise<Connection> {
  const { settings } = options;
  const configured = settings.baseUrl;
  const askedFor = settings.emulator || configured?.trim() === EMBEDDED_TARGET;
  if (configured && !askedFor) return remote(configured, settings);
  if (askedFor && !options.startEmbedded) {
    throw new RunError(`the embedded emulator is only for local use (the CLI); set AUTOJOIN_BASE_URL to the Invitation Service's URL`);
  }
  const refusal = askedFor || !options.startEmbedded ? null : embeddedRefusal(settings);
  if (refusal !== null || !options.startEmbedded) throw noService(options, refusal);
  const shown = (file: string): string => relativePosix(options.cwd ?? settings.base, file);
  return embedded(settings, options.startEmbedded, { detail: options.detail ?? notice, say: notice, shown }, askedFor);
}

/**
 * Why the embedded emulator may not stand in for a missing base URL, or null when it may:
 * in CI it would "succeed" against throwaway state, and an API key was meant for a real service.
 */
function embeddedRefusal(settings: ConnectSettings): string | null {
  // CI as the run context detected it, once (src/run/ci.ts): nothing here reads the environment.
  const ci = settings.ci;
  if (ci !== null) return `this looks like CI (${ci} is set)`;
  if (settings.apiKey !== undefined) return `${settings.apiKeyFrom ?? 'an API key'} is set, so a real service was meant`;
  return null;
}

/**
 * `using autojoin-sync.yaml; service host invitations.example.com`: which file chose the service
 * and where the key goes, so a project file from an unexpected place cannot go unnoticed.
 */
function usingLine(settings: ConnectSettings, connection: Connection, cwd: string): string {
  const projectFile = settings.project.file;
  const files = (settings.projects ?? []).flatMap((one) => (one.projectFile === undefined ? [] : [relativePosix(cwd, one.projectFile)]));
  const file =
    (settings.projects?.length ?? 0) > 1
      ? `${settings.projects?.length ?? 0} projects (${files.length === 0 ? 'no project file' : `project files ${files.join(', ')}`})`
      : projectFile === undefined
        ? 'no project file'
        : `project file ${relativePosix(cwd, projectFile)}`;
  const host = new URL(connection.baseUrl).host;
  const state = connection.stateFile === undefined ? '' : `, state in ${relativePosix(cwd, connection.stateFile)}`;
  return `using ${file}; service host ${host}${connection.embedded ? ` (embedded emulator${state})` : ''}`;
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
  const { requestTimeoutMs, concurrency } = options.settings;
  const connection = await connect(options);
  try {
    const { baseUrl, apiKey, accessToken } = connection;
    // The embedded emulator runs in this process: never send its requests through a proxy.
    const client = createClient({ baseUrl, apiKey, accessToken, onNotice, onRequest: options.onRequest, proxyFromEnv: !connection.embedded, requestTimeoutMs, connections: concurrency });
    try {
      return await work(client, connection);
    } finally {
      await client.close();
    }
  } finally {
    await connection.close();
  }
}

function remote(url: string, settings: ConnectSettings): Connection {
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
    ...credential('apiKey', settings.apiKey),
    ...credential('accessToken', settings.accessToken),
    embedded: false,
    close: () => Promise.resolve(),
  };
}

/** How the embedded emulator's lines are said: `detail`, the `using …` line's why; `say`, what every run shows; `shown`, a file as the preamble names it. */
interface EmbeddedVoice {
  detail: (message: string) => void;
  say: (message: string) => void;
  shown: (file: string) => string;
}

async function embedded(settings: ConnectSettings, start: EmbeddedStarter, voice: EmbeddedVoice, askedFor: boolean): Promise<Connection> {
  const { detail: notice, say, shown } = voice;
  const dir = settings.stateDir;
  const first = !existsSync(join(dir, EMBEDDED_STATE_FILE));
  await mkdir(dir, { recursive: true });
  // Local state is never meant to be committed.
  await writeFile(join(dir, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => undefined);
  const relative = shown(join(dir, EMBEDDED_STATE_FILE));
  let emulator;
  try {
    emulator = await start(join(dir, EMBEDDED_STATE_FILE), notice);
  } catch (error) {
    throw new RunError(`cannot start the embedded emulator: ${(error as Error).message}`, ExitCode.error);
  }
  const why = askedFor ? 'as asked' : 'AUTOJOIN_BASE_URL is not set';
  notice(`note: ${why}; using the embedded emulator (state in ${relative})`);
  if (first) for (const left of leftByRelease4(settings)) say(`note: ${shown(left)} is the embedded emulator's state of release 4, beside its project file; it is no longer read (the state is ${relative}), and can be deleted`);
  return {
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    accessToken: emulator.accessToken,
    embedded: true,
    stateFile: join(dir, EMBEDDED_STATE_FILE),
    target: EMBEDDED_TARGET,
    close: () => emulator.close(),
  };
}

/**
 * The state files release 4 kept beside each project file, where this run's projects have one
 * other than the run's state: never read; the run that first makes the run's state says so once.
 */
function leftByRelease4(settings: ConnectSettings): string[] {
  const ours = join(settings.stateDir, EMBEDDED_STATE_FILE);
  const files = (settings.projects ?? []).flatMap((one) => (one.projectFile === undefined ? [] : [join(dirname(one.projectFile), '.autojoin-sync', EMBEDDED_STATE_FILE)]));
  return [...new Set(files)].filter((file) => file !== ours && existsSync(file));
}

/** The one rule for "no service named": an error naming where to set one, never a silent emulator. */
function noService(options: ConnectOptions, refusal: string | null): RunError {
  const ignored = options.settings.projectBaseUrlIgnored === true;
  const where = ['AUTOJOIN_BASE_URL', ...(options.baseUrlHint ? [options.baseUrlHint] : []), ...(ignored ? [] : [`baseUrl in ${projectFileName()}`])].join(', or ');
  const why = ignored ? ` (in a pull request the baseUrl of ${projectFileName()} is not used: the pull request could change where the key goes)` : '';
  const because = refusal ? ` and ${refusal}` : '';
  const optIn = options.startEmbedded
    ? worded`; to use the local embedded emulator on purpose, pass ${hint('emulator', true)} or set AUTOJOIN_BASE_URL=${EMBEDDED_TARGET}`
    : '; the embedded emulator is only for local use';
  return new RunError(
    `AUTOJOIN_BASE_URL is not set${because}: no Invitation Service to talk to, and nothing was written. ` +
      `Set ${where} (with AUTOJOIN_API_KEY / AUTOJOIN_ACCESS_TOKEN)${why}${optIn}.`,
    ExitCode.error,
  );
}

function credential<K extends 'apiKey' | 'accessToken'>(name: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined || value === '' ? {} : ({ [name]: value } as Partial<Record<K, string>>);
}
