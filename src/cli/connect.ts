/**
 * Where commands send their requests: the service named by AUTOJOIN_BASE_URL (or the project
 * file), or, when none is set and we are not in CI, an emulator started in this process over
 * `.autojoin-sync/emulator.json`, so a first run works with no setup and no credentials.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmulator, DEFAULT_ACCESS_TOKEN, DEFAULT_API_KEY } from '../emulator/index.js';
import { baseUrlString, checkBaseUrl } from '../service/base-url.js';
import { createClient, type ServiceClient } from '../service/client.js';
import { CliError, ExitCode } from './exit-codes.js';

export interface ConnectOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Base URL from the project file (autojoin-sync.yaml); AUTOJOIN_BASE_URL wins over it. */
  baseUrl?: string;
  /** Where notices go (default: stderr). */
  notice?: (message: string) => void;
}

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
 * @throws CliError when the base URL is refused, or when none is set in CI
 */
export async function connect(options: ConnectOptions = {}): Promise<Connection> {
  const env = options.env ?? process.env;
  const configured = nonEmpty(env.AUTOJOIN_BASE_URL) ?? nonEmpty(options.baseUrl);
  if (configured) return remote(configured, env);
  if (env.CI === 'true') {
    throw new CliError(
      'AUTOJOIN_BASE_URL is not set; in CI set it (with AUTOJOIN_API_KEY / AUTOJOIN_ACCESS_TOKEN) to the Invitation Service. ' +
        'The embedded emulator is only for local use.',
      ExitCode.error,
    );
  }
  return embedded(options.cwd ?? process.cwd(), options.notice ?? ((message) => process.stderr.write(`${message}\n`)));
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
    const client = createClient({ baseUrl, apiKey, accessToken, onNotice });
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
    throw new CliError((error as Error).message, ExitCode.error);
  }
  return {
    baseUrl: baseUrlString(checked),
    ...credential('apiKey', env.AUTOJOIN_API_KEY),
    ...credential('accessToken', env.AUTOJOIN_ACCESS_TOKEN),
    embedded: false,
    close: async () => undefined,
  };
}

async function embedded(cwd: string, notice: (message: string) => void): Promise<Connection> {
  const dir = join(cwd, EMBEDDED_STATE_DIR);
  await mkdir(dir, { recursive: true });
  // Local state is never meant to be committed.
  await writeFile(join(dir, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => undefined);
  const relative = `${EMBEDDED_STATE_DIR}/${EMBEDDED_STATE_FILE}`;
  let emulator;
  try {
    emulator = await startEmulator({ port: 0, dataFile: join(dir, EMBEDDED_STATE_FILE) });
  } catch (error) {
    throw new CliError(`cannot start the embedded emulator: ${(error as Error).message}`, ExitCode.error);
  }
  notice(`note: AUTOJOIN_BASE_URL is not set; using the embedded emulator (state in ${relative})`);
  return {
    baseUrl: emulator.url,
    apiKey: DEFAULT_API_KEY,
    accessToken: DEFAULT_ACCESS_TOKEN,
    embedded: true,
    close: () => emulator.close(),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function credential<K extends 'apiKey' | 'accessToken'>(name: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined || value === '' ? {} : ({ [name]: value } as Partial<Record<K, string>>);
}
