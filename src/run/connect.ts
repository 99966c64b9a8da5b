/**
 * Where commands send their requests: the service named by AUTOJOIN_BASE_URL (or the project
 * file), or, when none is set and we are not in CI, an emulator started in this process over
 * `.autojoin-sync/emulator.json`, so a first run works with no setup and no credentials.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { baseUrlString, checkBaseUrl } from '../service/base-url.js';
import { createClient, type ServiceClient } from '../service/client.js';
import { RunError, ExitCode } from './exit-codes.js';
import { PROJECT_FILE } from '../policy/index.js';

export interface ConnectOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Base URL from the project file (autojoin-sync.yaml); AUTOJOIN_BASE_URL wins over it. */
  baseUrl?: string;
  /** Where notices go (default: stderr). */
  notice?: (message: string) => void;
  /** Where else the front end takes a base URL from, named in the error when none is set. */
  baseUrlHint?: string;
  /**
   * Starts the embedded emulator when no service is configured. Front ends that never run one
   * (the action) leave it out, so their bundle carries no emulator.
   */
  startEmbedded?: EmbeddedStarter;
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
  /** Stops the embedded emulator (flushing its state); nothing to do for a remote service. */
  close(): Promise<void>;
}

/** Directory (under cwd) and file of the embedded emulator's state. */
const EMBEDDED_STATE_DIR = '.autojoin-sync';
const EMBEDDED_STATE_FILE = 'emulator.json';

/**
 * Resolves the service to talk to.
 * @returns the base URL and credentials to use, and how to release them
 * @throws RunError when the base URL is refused, or when none is set in CI
 */
export async function connect(options: ConnectOptions = {}): Promise<Connection> {
  const env = options.env ?? process.env;
  const configured = nonEmpty(env.AUTOJOIN_BASE_URL) ?? nonEmpty(options.baseUrl);
  if (configured) return remote(configured, env);
  if (env.CI === 'true' || !options.startEmbedded) throw noService(options.baseUrlHint);
  const notice = options.notice ?? ((message: string) => process.stderr.write(`${message}\n`));
  return embedded(options.cwd ?? process.cwd(), options.startEmbedded, notice);
}

/**
 * Connects, creates the service client with the connection's credentials, runs `work`, and
 * always closes client and connection (the embedded emulator flushes its state on close).
 * @param onNotice where the client's notices go (e.g. that a listing call is deprecated)
 */
export async function withServiceClient<T>(
  options: ConnectOptions,
  onNotice: (message: string) => void,
  work: (client: ServiceClient) => Promise<T>,
): Promise<T> {
  const connection = await connect(options);
  try {
    const { baseUrl, apiKey, accessToken } = connection;
    const client = createClient({ baseUrl, apiKey, accessToken, onNotice, connections: options.connections });
    try {
      return await work(client);
    } finally {
      await client.close();
    }
  } finally {
    await connection.close();
  }
}

function remote(url: string, env: NodeJS.ProcessEnv): Connection {
  let checked: URL;
  try {
    checked = checkBaseUrl(url);
  } catch (error) {
    throw new RunError((error as Error).message, ExitCode.error);
  }
  return {
    baseUrl: baseUrlString(checked),
    ...credential('apiKey', env.AUTOJOIN_API_KEY),
    ...credential('accessToken', env.AUTOJOIN_ACCESS_TOKEN),
    embedded: false,
    close: async () => undefined,
  };
}

async function embedded(cwd: string, start: EmbeddedStarter, notice: (message: string) => void): Promise<Connection> {
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
  notice(`note: AUTOJOIN_BASE_URL is not set; using the embedded emulator (state in ${relative})`);
  return {
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    accessToken: emulator.accessToken,
    embedded: true,
    close: () => emulator.close(),
  };
}

/** The one rule for "no service named": an error naming where to set one, never a silent emulator. */
function noService(hint: string | undefined): RunError {
  const where = ['AUTOJOIN_BASE_URL', ...(hint ? [hint] : []), `baseUrl in ${PROJECT_FILE}`].join(', or ');
  return new RunError(
    `AUTOJOIN_BASE_URL is not set: no Invitation Service to talk to. Set ${where} (with AUTOJOIN_API_KEY / AUTOJOIN_ACCESS_TOKEN); ` +
      'the embedded emulator is only for local use.',
    ExitCode.error,
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function credential<K extends 'apiKey' | 'accessToken'>(name: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined || value === '' ? {} : ({ [name]: value } as Partial<Record<K, string>>);
}
