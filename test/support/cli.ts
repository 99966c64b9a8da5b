/**
 * Runs the built CLI (dist/cli.js) as a separate process, as a user would.
 * vitest's globalSetup (test/support/global-setup.ts) builds it before any test runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** Added to a clean environment (PATH, HOME, NO_COLOR=1, CI unset). */
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

/** Spawns `node dist/cli.js ...args`, feeds it `input`, and collects its output (SIGKILL after `timeoutMs`). */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const { child, done } = spawnCli(args, { ...options, stdin: 'pipe' });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  // A CLI that exits without reading its input (most commands never read stdin) closes the pipe
  // under the write: EPIPE (or ECONNRESET) on the stream. That is the child's business, seen in its
  // exit code and output; unhandled, it was an uncaught error that failed a run whose tests passed.
  child.stdin?.on('error', ignoreClosedPipe);
  child.stdin?.end(options.input ?? '');
  return done.finally(() => clearTimeout(timer));
}

/** Swallows the errors of writing to a child that has closed its stdin; any other error is thrown. */
export function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
}

/** The API key the hardening suites give their emulator processes. */
const HARDENING_KEY = 'hardening-key-5d1e';

/** A spawned process whose output is collected and which may be killed at any time. */
export interface Spawned {
  child: ChildProcess;
  done: Promise<CliResult>;
}

/**
 * Spawns `node dist/cli.js ...args` with a clean environment (PATH, HOME, NO_COLOR=1) plus `env`
 * (an undefined value removes a variable); the process may be killed at any time.
 */
export function spawnCli(args: string[], options: CliOptions & { stdin?: 'pipe' | 'ignore' } = {}): Spawned {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1' };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd: options.cwd, env, stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** The emulator as its own process (`autojoin-sync emulator`), so it can be killed with SIGKILL. */
export interface EmulatorProcess extends Spawned {
  url: string;
}

export async function startEmulatorProcess(cwd: string, dataFile: string, extra: string[] = [], apiKey = HARDENING_KEY): Promise<EmulatorProcess> {
  const spawned = spawnCli(['emulator', '--port', '0', '--data', dataFile, ...extra], { cwd, env: { AUTOJOIN_API_KEY: apiKey } });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${seen}`)), 15_000);
    spawned.child.stdout?.on('data', (chunk: string) => {
      seen += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    void spawned.done.then((result) => reject(new Error(`emulator exited ${String(result.code)}: ${result.stderr}`)));
  });
  return { ...spawned, url };
}

/** Stops a process (SIGTERM unless told otherwise) and waits for it to exit. */
export async function stop(spawned: Spawned, signal: NodeJS.Signals = 'SIGTERM'): Promise<CliResult> {
  if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill(signal);
  return spawned.done;
}

