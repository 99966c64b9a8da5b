/**
 * `autojoin-sync emulator` as a request (src/cli/commands/emulator.ts translates its flags): a
 * local Invitation Service for trying things out and for tests, not a run (it reads no policy
 * file). The command owns what the request decides: the state it is seeded with when there is no
 * data file yet, the faults it draws from, the credentials it accepts (from the environment, never
 * echoed, else the documented local defaults) and what it says of them, and a port in use as a
 * refusal that names --port.
 */
import { existsSync } from 'node:fs';
import { ALL_FAULTS, DEFAULT_ACCESS_TOKEN, DEFAULT_API_KEY, generateData, parseFaultKinds, startEmulator, type EmulatorOptions, type GenerateOptions } from '../emulator/index.js';
import { ExitCode, RunError } from '../output/exit-codes.js';

/** What the help names: the faults to draw from, and the local credentials accepted when the environment sets none. */
export const EMULATOR_HELP = { faults: ALL_FAULTS, apiKey: DEFAULT_API_KEY, accessToken: DEFAULT_ACCESS_TOKEN } as const;

/** The request: the emulator's options as the flags give them, the seed, and the environment the credentials come from. */
export interface EmulatorRequest extends Omit<EmulatorOptions, 'data' | 'apiKey' | 'accessToken' | 'onLockWait' | 'beforeAnswer'> {
  /** --seed-*: the state generated when there is no data file yet. */
  seed?: GenerateOptions;
  /** AUTOJOIN_API_KEY and AUTOJOIN_ACCESS_TOKEN: the credentials accepted instead of the local defaults. */
  env: NodeJS.ProcessEnv;
}

/** Where the emulator's words go. */
export interface EmulatorView {
  notice(message: string): void;
  /** That it waits for another process holding the data file. */
  waiting(message: string): void;
}

/** A started emulator: where it listens, and how to stop it (with what it served). */
export interface RunningEmulator {
  url: string;
  stop(): Promise<{ served: number; throttled: number }>;
}

/** @throws RunError naming --faults when the list names an unknown fault */
export function faultsRequest(raw: string): EmulatorOptions['faults'] {
  try {
    return parseFaultKinds(raw);
  } catch (error) {
    throw new RunError(`--faults: ${(error as Error).message}`, ExitCode.error);
  }
}

/** Says which credentials and state it uses, then starts it. @throws RunError when the port is in use (naming --port) or it cannot start */
export async function emulatorCommand(request: EmulatorRequest, view: EmulatorView): Promise<RunningEmulator> {
  const { seed, env, ...options } = request;
  for (const line of notices(request)) view.notice(line);
  let emulator;
  try {
    emulator = await startEmulator({
      ...options,
      onLockWait: (message) => view.waiting(message),
      data: seed === undefined ? undefined : generateData(seed),
      apiKey: env.AUTOJOIN_API_KEY || undefined,
      accessToken: env.AUTOJOIN_ACCESS_TOKEN || undefined,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new RunError(`port ${options.port} on 127.0.0.1 is already in use; choose another with --port (0 picks a free one)`);
    }
    throw new RunError((error as Error).message, ExitCode.error);
  }
  const running = emulator;
  return {
    url: running.url,
    stop: async () => {
      await running.close();
      return { served: running.requests.length, throttled: running.requests.filter((one) => one.status === 429).length };
    },
  };
}

/** Which credentials are accepted, without ever echoing one taken from the environment. */
function notices(request: EmulatorRequest): string[] {
  const { env, dataFile } = request;
  const lines = [
    env.AUTOJOIN_API_KEY
      ? 'emulator: accepting the x-api-key from AUTOJOIN_API_KEY'
      : `emulator: accepting the default local key ${DEFAULT_API_KEY} (set AUTOJOIN_API_KEY to choose one)`,
    env.AUTOJOIN_ACCESS_TOKEN
      ? 'emulator: accepting the bearer token from AUTOJOIN_ACCESS_TOKEN'
      : `emulator: accepting the default local token ${DEFAULT_ACCESS_TOKEN} (set AUTOJOIN_ACCESS_TOKEN to choose one)`,
    dataFile ? `emulator: state in ${dataFile}` : 'emulator: state in memory only (use --data FILE to keep it)',
  ];
  if (dataFile && request.seed !== undefined && existsSync(dataFile)) lines.push(`emulator: ${dataFile} exists; the --seed-* options are ignored`);
  return lines;
}
