/**
 * The one way this program runs git (pruning, changed files, blob reads, `inventory --blame`, the
 * ownership marker's commit). Every call goes through {@link startGit}: stdout is either streamed
 * to a handler (history, blob contents) or collected under a byte cap, stdin is fed with
 * backpressure, and a failure becomes one GitRevisionError that names what the user asked for
 * (`--prune-from REV`, `--changed-since REV`, `pruning`). Blob contents: blobs.ts; the repository
 * around the policy paths: repository.ts.
 */
import { spawn } from 'node:child_process';
import { scrubCutEdges } from '../redact.js';
import { cutText } from '../redact.js';

/** Most bytes of output collected from one git call; streamed calls have no cap. */
const MAX_COLLECTED = 64 * 1024 * 1024;

/** Length of the commit ids plans show: unique in any repository people keep policies in. */
export const SHORT_SHA = 12;

/** @returns true for a revision that names no commit, like GitHub's `before` of a new branch (all zeros). */
export function isNullRevision(rev: string): boolean {
  return /^0+$/.test(rev);
}

/** @throws GitRevisionError for a revision that would be read as an option */
export function checkRevision(rev: string, flag: string): void {
  if (rev.startsWith('-')) throw new GitRevisionError(`${flag}: "${rev}" is not a git revision`);
}

export interface GitOptions {
  /** Directory git runs in. */
  cwd: string;
  /** What the user asked for, first in any error message, e.g. `--prune-from HEAD~1`. */
  context: string;
}

/** A running git process: feed it with `write` (awaits drain), close stdin with `end`. */
export interface GitProcess {
  write(text: string): Promise<void>;
  end(text?: string): void;
  /** Settles when git exits: rejects with GitRevisionError on a non-zero exit. */
  done: Promise<void>;
}

/**
 * Starts `git ...args`, handing each chunk of stdout to `onData` (nothing is kept here).
 * stderr is kept (its first line names the failure), up to 64 KiB.
 */
export function startGit(args: readonly string[], options: GitOptions & { onData: (chunk: Buffer) => void }): GitProcess {
  const child = spawn('git', args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let capped = false;
  let failure: Error | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    if (failure) return;
    try {
      options.onData(chunk);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      child.kill();
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < 65_536) stderr += chunk;
    else capped = true;
  });
  child.stdin.on('error', () => undefined); // git may exit before reading all of stdin; 'close' reports why
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) => reject(gitFailed(args, options.context, error.code === 'ENOENT' ? 'git is not installed or not on PATH' : error.message)));
    child.on('close', (code) => {
      if (failure) reject(failure);
      else if (code === 0) resolve();
      // Past the cap, a secret may straddle the cut: what ends the kept text is scrubbed.
      else reject(gitFailed(args, options.context, capped ? scrubCutEdges(stderr, { end: true }) : stderr));
    });
  });
  const write = (text: string): Promise<void> =>
    child.stdin.write(text) || child.stdin.destroyed
      ? Promise.resolve()
      : new Promise((resolve) => {
          const go = (): void => {
            child.stdin.off('drain', go);
            child.stdin.off('close', go);
            resolve();
          };
          child.stdin.on('drain', go).on('close', go);
        });
  return { write, end: (text) => child.stdin.end(text ?? ''), done };
}

/**
 * Runs git to completion and returns its stdout.
 * @param input written to stdin (then closed)
 * @throws GitRevisionError when git fails or prints more than 64 MiB
 */
export async function runGit(args: readonly string[], options: GitOptions & { input?: string }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const git = startGit(args, {
    ...options,
    onData: (chunk) => {
      size += chunk.length;
      if (size > MAX_COLLECTED) throw gitFailed(args, options.context, `more than ${MAX_COLLECTED} bytes of output`);
      chunks.push(chunk);
    },
  });
  git.end(options.input);
  try {
    await git.done;
  } catch (error) {
    // Some failures are told on stdout only (`git commit` with nothing to commit): show git's words.
    if (error instanceof GitFailedError && error.detail === UNKNOWN) throw gitFailed(args, options.context, stdoutMessage(Buffer.concat(chunks, size).toString('utf8')));
    throw error;
  }
  return Buffer.concat(chunks, size);
}

/** git could not read what a run needs (history for pruning, `--prune-from`, `--changed-since`), or the history is cut short (a shallow clone). */
export class GitRevisionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitRevisionError';
  }
}

/** git could not run, or exited with an error; `detail` is why (the first line of its stderr). */
export class GitFailedError extends GitRevisionError {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

const UNKNOWN = 'unknown error';

/** Options that take the next argument as their value, before the subcommand (`git -c k=v -C dir commit`). */
const VALUED_OPTIONS = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace']);

/** @returns the subcommand of a git call (`commit` of `git -c user.name=x commit -m …`) */
export function gitSubcommand(args: readonly string[]): string {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (VALUED_OPTIONS.has(arg)) index++;
    else if (!arg.startsWith('-')) return arg;
  }
  return args[0] ?? '';
}

/** @returns up to three lines of what git printed on stdout, as one line (`On branch main; nothing to commit, …`) */
function stdoutMessage(stdout: string): string {
  return cutText(stdout.split('\n').map((line) => line.trim()).filter(Boolean).slice(0, 3).join('; '), 500);
}

function gitFailed(args: readonly string[], context: string, output: string): GitFailedError {
  const detail = output.split('\n').find((line) => line.trim() !== '')?.trim() ?? UNKNOWN;
  return new GitFailedError(`${context}: git ${gitSubcommand(args)} failed: ${detail}`, detail);
}
