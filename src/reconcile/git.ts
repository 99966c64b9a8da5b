/**
 * The one way this program runs git. Every call goes through {@link startGit}: stdout is either
 * streamed to a handler (history, blob contents) or collected under a byte cap, stdin is fed with
 * backpressure, and a failure becomes one GitRevisionError that names what the user asked for
 * (`--prune-from REV`, `--changed-since REV`, `pruning`). Blob contents are read by one reader,
 * {@link readBlobs}: sizes first (`cat-file --batch-check`), then only the blobs under the cap,
 * parsed as they stream, so memory stays bounded whatever the repository holds.
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path, { posix } from 'node:path';
import { repositoryRoot } from '../files.js';
import { relativePosix } from '../policy/discover.js';
import { GitRevisionError } from './errors.js';

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
  });
  child.stdin.on('error', () => undefined); // git may exit before reading all of stdin; 'close' reports why
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) => reject(gitFailed(args, options.context, error.code === 'ENOENT' ? 'git is not installed or not on PATH' : error.message)));
    child.on('close', (code) => {
      if (failure) reject(failure);
      else if (code === 0) resolve();
      else reject(gitFailed(args, options.context, stderr));
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
  await git.done;
  return Buffer.concat(chunks, size);
}

/**
 * The commit a write records in its ownership marker (`autojoin-sync.commit`).
 * @param dir a directory inside the policy paths' repository
 * @returns the full id of the commit HEAD points to, or undefined outside git (or before the first commit)
 */
export async function headCommit(dir: string): Promise<string | undefined> {
  try {
    const id = (await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: dir, context: 'ownership marker' })).toString('utf8').trim();
    return /^[0-9a-f]{40,64}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

function gitFailed(args: readonly string[], context: string, stderr: string): GitRevisionError {
  const detail = stderr.split('\n').find((line) => line.trim() !== '')?.trim() ?? 'unknown error';
  return new GitRevisionError(`${context}: git ${args[0] ?? ''} failed: ${detail}`);
}

/** What {@link readBlobs} hands over for each object asked for. */
export type BlobRead =
  | { kind: 'blob'; bytes: Buffer }
  | { kind: 'too-large'; size: number }
  /** Not in the repository, or not a blob. */
  | { kind: 'missing' };

/** Reads blobs as they are asked for; `close` once every `read` is made, and await it. */
export interface BlobStream {
  /** Asks for an object (an id, or a name such as `REV:path`); `onRead` gets it, once. */
  read(name: string, onRead: (read: BlobRead) => void): void;
  /** No more reads: settles once every answer was handed over (rejects when git fails). */
  close(): Promise<void>;
}

/**
 * Reads blobs with two git processes however many there are, streaming both ways: `cat-file
 * --batch-check` gives each object's type and size, and only blobs of at most `maxBytes` go on to
 * `cat-file --batch`, whose output is parsed as it arrives. Larger blobs are never read; memory
 * holds one blob at a time. Answers come in the order asked among the blobs read; a blob that is
 * not read (too large, missing) is answered as soon as its size is known.
 */
export function streamBlobs(options: GitOptions & { maxBytes: number }): BlobStream {
  const checking: { name: string; onRead: (read: BlobRead) => void }[] = [];
  const reading: ((read: BlobRead) => void)[] = [];
  const contents = startGit(['cat-file', '--batch', '--buffer'], {
    ...options,
    onData: batchParser((bytes) => reading.shift()?.(bytes ? { kind: 'blob', bytes } : { kind: 'missing' })),
  });
  let pending = '';
  const check = startGit(['cat-file', '--batch-check=%(objecttype) %(objectsize)', '--buffer'], {
    ...options,
    onData: (chunk) => {
      const lines = (pending + chunk.toString('latin1')).split('\n');
      pending = lines.pop() ?? '';
      const wanted: string[] = [];
      for (const line of lines) {
        const asked = checking.shift();
        if (!asked) continue;
        const [type, size] = line.split(' ');
        if (type !== 'blob') asked.onRead({ kind: 'missing' });
        else if (Number(size) > options.maxBytes) asked.onRead({ kind: 'too-large', size: Number(size) });
        else {
          reading.push(asked.onRead);
          wanted.push(asked.name);
        }
      }
      if (wanted.length > 0) void contents.write(`${wanted.join('\n')}\n`);
    },
  });
  // Names asked for in one turn of the event loop go to git in one write.
  let asked: string[] = [];
  const send = (): void => {
    if (asked.length > 0) void check.write(`${asked.join('\n')}\n`);
    asked = [];
  };
  return {
    read(name, onRead) {
      checking.push({ name, onRead });
      if (asked.push(name) === 1) setImmediate(send);
    },
    async close() {
      send();
      check.end();
      await check.done.finally(() => contents.end());
      await contents.done;
    },
  };
}

/**
 * Reads `names` through {@link streamBlobs}.
 * @param onBlob called once per name
 */
export async function readBlobs(names: readonly string[], options: GitOptions & { maxBytes: number }, onBlob: (name: string, read: BlobRead) => void): Promise<void> {
  if (names.length === 0) return;
  const stream = streamBlobs(options);
  for (const name of names) stream.read(name, (read) => onBlob(name, read));
  await stream.close();
}

/**
 * @returns a push parser of `cat-file --batch` output (`OID TYPE SIZE\n<content>\n` per object)
 * calling `onContent` with each object's content; memory is one object plus one chunk.
 */
function batchParser(onContent: (bytes: Buffer | null) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let body: { bytes: Buffer; filled: number } | null = null;
  return (chunk) => {
    let data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    pending = Buffer.alloc(0);
    while (data.length > 0) {
      if (body === null) {
        const end = data.indexOf(0x0a);
        if (end < 0) {
          pending = Buffer.from(data);
          return;
        }
        const size = Number(data.subarray(0, end).toString('latin1').split(' ')[2]);
        data = data.subarray(end + 1);
        // `NAME missing`: gone since the size check (it cannot be, for an object id); nothing follows.
        if (!Number.isInteger(size)) {
          onContent(null);
          continue;
        }
        body = { bytes: Buffer.allocUnsafe(size + 1), filled: 0 };
      }
      const take = Math.min(body.bytes.length - body.filled, data.length);
      data.copy(body.bytes, body.filled, 0, take);
      body.filled += take;
      data = data.subarray(take);
      if (body.filled === body.bytes.length) {
        // The content, without the newline that ends each object.
        onContent(body.bytes.subarray(0, body.bytes.length - 1));
        body = null;
      }
    }
  };
}

/** The git repository the policy paths lie in, as the readers of history and revisions use it. */
export interface Repository {
  /** Directory git runs in: the paths' common directory (or its nearest existing ancestor). */
  dir: string;
  /** `dir` inside the repository: `''` at its root, else ending in `/`. */
  prefix: string;
  shallow: boolean;
  /** The commit HEAD names; null in a repository without a commit yet. */
  head: string | null;
  /** The directory paths are given and shown relative to. */
  cwd: string;
}

/**
 * @param paths the run's policy paths, relative to `cwd`
 * @returns the repository around the paths, or null when they are not in one (nothing to prune)
 */
export async function openRepository(paths: readonly string[], cwd: string, context: string): Promise<Repository | null> {
  const dir = await existingAncestor(commonDirectory(paths.map((given) => path.resolve(cwd, given))));
  if ((await repositoryRoot(dir)) === null) return null;
  const answer = await runGit(['rev-parse', '--is-shallow-repository', '--show-prefix', '--revs-only', 'HEAD'], { cwd: dir, context });
  const [shallow, prefix = '', head = ''] = answer.toString('utf8').split('\n');
  return { dir, prefix, shallow: shallow === 'true', head: head === '' ? null : head, cwd };
}

/** @returns a path from the repository root as a path relative to the run's cwd (how files are shown). */
export function shownPath(repository: Repository, fromRoot: string): string {
  return relativePosix(repository.cwd, path.join(repository.dir, posix.relative(repository.prefix || '.', fromRoot)));
}

/** @returns a path given relative to the run's cwd as a path from the repository root (it may start with `..` when outside). */
export function rootPath(repository: Repository, given: string): string {
  const fromDir = relativePosix(repository.dir, path.resolve(repository.cwd, given));
  return posix.normalize(posix.join(repository.prefix, fromDir === '.' ? '' : fromDir)).replace(/\/$/, '') || '.';
}

/** @returns a pathspec naming `fromRoot` from the repository root, taken literally (no glob). */
export function topPathspec(fromRoot: string): string {
  return fromRoot === '.' ? ':(top)' : `:(top,literal)${fromRoot}`;
}

function commonDirectory(absolute: readonly string[]): string {
  let common = absolute[0] ?? process.cwd();
  for (const dir of absolute.slice(1)) {
    while (dir !== common && !dir.startsWith(common + path.sep)) common = path.dirname(common);
  }
  return common;
}

/** A deleted directory (say, the policies of a prune-everything run) is looked up from its parent. */
async function existingAncestor(dir: string): Promise<string> {
  for (let at = dir; ; at = path.dirname(at)) {
    const info = await stat(at).catch(() => null);
    if (info?.isDirectory()) return at;
    if (path.dirname(at) === at) return at;
  }
}
