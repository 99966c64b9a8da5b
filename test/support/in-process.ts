/**
 * The CLI run in this process, through the same program dist/cli.js loads (src/cli/dispatch.ts):
 * arguments, environment and working directory as a spawned run would have them, stdout and
 * stderr collected, the exit code read from `process.exitCode` and reset. Runs are serial (one
 * working directory and one environment per process); the test pool forks, so chdir is allowed.
 * In a worker thread (mutation testing: Stryker's vitest runner asks for threads), which cannot
 * chdir, `process.cwd()` answers the run's directory instead: the program resolves every path
 * it is given from process.cwd() (src/run/place.ts), never from the OS's working directory.
 * Fast-tier tests use it; the named cases also have a spawned twin in an `*.e2e.test.ts` file.
 */
import { isMainThread } from 'node:worker_threads';
import { runProgram } from '../../src/cli/dispatch.js';
import type { CliResult } from './cli.js';

export interface InProcessOptions {
  cwd: string;
  /** Set for the run (undefined removes a variable); restored after it. */
  env?: Record<string, string | undefined>;
}

/** @returns what the run printed and its exit code, as runCli (test/support/cli.ts) gives them */
export async function runInProcess(args: readonly string[], options: InProcessOptions): Promise<CliResult> {
  const savedEnv = new Map<string, string | undefined>();
  for (const [name, value] of Object.entries({ NO_COLOR: '1', CI: undefined, ...options.env })) {
    savedEnv.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  const savedCwd = process.cwd();
  const writes = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
  let stdout = '';
  let stderr = '';
  const collect = (append: (text: string) => void) => ((chunk: string | Uint8Array) => {
    append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = collect((text) => (stdout += text));
  process.stderr.write = collect((text) => (stderr += text));
  process.exitCode = undefined;
  try {
    enter(options.cwd);
    await runProgram(['node', 'autojoin-sync', ...args]);
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    leave(savedCwd);
    for (const [name, value] of savedEnv) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  const code = Number(exitCode() ?? 0);
  process.exitCode = undefined;
  return { code, signal: null, stdout, stderr };
}

/** Read through a call: after `process.exitCode = undefined` above, TypeScript would narrow the property itself to undefined. */
function exitCode(): string | number | null | undefined {
  return process.exitCode;
}

const realCwd = process.cwd.bind(process);

/** Makes `dir` the working directory of the run: chdir, or in a worker thread process.cwd(). */
function enter(dir: string): void {
  if (isMainThread) process.chdir(dir);
  else process.cwd = () => dir;
}

/** Back to `saved` after the run. */
function leave(saved: string): void {
  if (isMainThread) process.chdir(saved);
  else process.cwd = realCwd;
}
