/**
 * Every file the tool reads or writes on a user's behalf goes through here, because a path in
 * a repository is input like any other: it may be a symlink out of the repository, a FIFO that
 * never ends, `/dev/zero`, or a file far larger than any policy. So a read is: lstat, follow a
 * symlink only to a regular file inside the root, refuse anything but a regular file, cap the
 * size before reading, open without blocking and read at most the cap. A write is: never
 * through a symlink, a temp file created exclusively, then a rename (or a link, which cannot
 * clobber, when the target must not exist yet).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { access, link, lstat, open, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, isAbsolute, resolve, sep } from 'node:path';

/** @returns true when `file` exists (any kind of entry the process can see). */
export async function pathExists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** @returns true when there is any directory entry at `file`, a dangling symlink included. */
export async function entryExists(file: string): Promise<boolean> {
  return (await lstat(file).catch(() => null)) !== null;
}

/** Why a file was refused; `too-large` carries the size found. */
export type FileProblem = 'not-regular' | 'outside-root' | 'too-large' | 'symlink' | 'read-error';

/** A file that cannot be read or written safely; the message names it. */
export class FileAccessError extends Error {
  constructor(
    message: string,
    readonly problem: FileProblem,
    readonly size?: number,
  ) {
    super(message);
    this.name = 'FileAccessError';
  }
}

export interface ReadOptions {
  /** Largest size read, in bytes; a larger file is refused before any byte is read. */
  maxBytes: number;
  /** When set, the file's real path must lie inside this directory or one of these (real paths themselves, as {@link realRoot} returns). */
  root?: string | readonly string[];
  /** What the file is, for messages: `policy file`, `saved plan`. */
  what?: string;
  /**
   * Real paths of directories, shared by the reads of one batch: a file that is no symlink has
   * its directory's real path plus its own name as real path, so each directory is resolved once.
   */
  realDirectories?: Map<string, string>;
}

/**
 * Reads a regular file safely (see the module comment).
 * @throws FileAccessError naming the file and what is wrong with it
 */
export function readRegularFile(file: string, options: ReadOptions): Promise<Buffer> {
  // A throw in the executor rejects the promise, as a failed read always has.
  return new Promise((resolve) => resolve(readRegularFileSync(file, options)));
}

/**
 * {@link readRegularFile} with blocking system calls, for batches of small files: a call takes a
 * few microseconds where a promise round trip through the thread pool takes tens, and the checks
 * make it safe to block (only a regular file is ever read, without waiting to open it, and at
 * most `maxBytes` of it).
 * @throws FileAccessError naming the file and what is wrong with it
 */
export function readRegularFileSync(file: string, options: ReadOptions): Buffer {
  const what = options.what ?? 'file';
  const real = resolveRegular(file, what, options.realDirectories);
  if (options.root !== undefined) checkInsideRoot(file, real, options.root, what);
  let fd: number | undefined;
  try {
    // O_NONBLOCK: a FIFO swapped in after the check cannot hang the open; O_NOFOLLOW: nor a new symlink.
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    const info = fstatSync(fd);
    if (!info.isFile()) throw new FileAccessError(`${what} ${file} is not a regular file`, 'not-regular');
    if (info.size > options.maxBytes) throw tooLarge(file, what, info.size, options.maxBytes);
    return readAtMost(fd, { file, what, maxBytes: options.maxBytes, expected: info.size });
  } catch (error) {
    if (error instanceof FileAccessError) throw error;
    throw new FileAccessError(`cannot read ${what} ${file}: ${(error as Error).message}`, 'read-error');
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * lstat, then (for a symlink) the target: @returns the real path of a regular file. A relative
 * `file` is found from `process.cwd()`, the run's directory (src/run/place.ts), and named as given.
 */
function resolveRegular(file: string, what: string, realDirectories?: Map<string, string>): string {
  const onDisk = resolve(file);
  let info;
  try {
    info = lstatSync(onDisk);
  } catch (error) {
    throw new FileAccessError(`cannot read ${what} ${file}: ${(error as Error).message}`, 'read-error');
  }
  const symlink = info.isSymbolicLink();
  if (symlink) {
    const target = statOrNull(onDisk);
    if (!target) throw new FileAccessError(`${what} ${file} is a symlink to nothing`, 'not-regular');
    info = target;
  }
  if (!info.isFile()) throw new FileAccessError(`${what} ${file} is not a regular file (${kindOf(info)})`, 'not-regular');
  if (symlink || realDirectories === undefined) return realpathSync.native(onDisk);
  return join(realDirectory(dirname(onDisk), realDirectories), basename(onDisk));
}

// Any failure (no target, a loop, no permission) counts as a symlink to nothing.
function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

function realDirectory(dir: string, realDirectories: Map<string, string>): string {
  let real = realDirectories.get(dir);
  if (real === undefined) {
    real = realpathSync.native(dir);
    realDirectories.set(dir, real);
  }
  return real;
}

function kindOf(info: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a file';
}

function checkInsideRoot(file: string, real: string, root: string | readonly string[], what: string): void {
  const roots = typeof root === 'string' ? [root] : root;
  if (roots.some((dir) => isInside(dir, real))) return;
  const where = roots.join(' or ');
  throw new FileAccessError(`${what} ${file} resolves to ${real}, outside ${where}; only files inside the named path's repository (or directory, outside git) are read`, 'outside-root');
}

/** @returns true when `file` is `dir` or lies under it (both absolute, symlinks resolved). */
export function isInside(dir: string, file: string): boolean {
  // A name that starts with `..` is taken for outside, as by path.relative's answer below (it errs on the safe side).
  if (relativeBelow(dir, file)?.startsWith('..') === false) return true;
  const rel = relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * For a path a file records (a saved plan's project file), which is input like any other.
 * @returns why `path` is not a relative POSIX path that stays below the directory it is joined
 *   to (absolute, a drive or backslash, a `..`, `.` or empty segment, a NUL), or null when it is
 */
export function recordedPathProblem(path: string): string | null {
  if (path === '') return 'it is empty';
  if (path.startsWith('/') || /^[a-z]:/iu.test(path) || path.includes('\\')) return 'it is not a relative POSIX path';
  if (path.includes('\0')) return 'it holds a NUL character';
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return 'it has a `..`, `.` or empty segment';
  return null;
}

/** A POSIX path that path.relative would normalize: `//`, a `.` or `..` segment, or a trailing `/`. */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|.\/$/u;

/**
 * The common case of path.relative, without it: `file` below `dir`, both absolute and already
 * normal, as discovery and path.join give them. path.relative resolves both paths again on every
 * call, the largest part of what a policy file's path work cost (thousands of files, a few
 * calls each).
 * @returns `file` relative to `dir` ('' when they are the same), or undefined when that takes
 *   path.relative (a path elsewhere, not normal or not absolute, or a platform other than POSIX)
 */
export function relativeBelow(dir: string, file: string): string | undefined {
  if (sep !== '/' || !dir.startsWith('/') || NOT_NORMAL.test(dir) || NOT_NORMAL.test(file)) return undefined;
  if (file === dir) return '';
  if (dir === '/') return file.startsWith('/') ? file.slice(1) : undefined;
  return file.startsWith(dir) && file[dir.length] === '/' ? file.slice(dir.length + 1) : undefined;
}

/** Reads to the end, but never more than `maxBytes` (a file may grow after its size was read). */
function readAtMost(fd: number, read: { file: string; what: string; maxBytes: number; expected: number }): Buffer {
  // One byte more than expected, so an unchanged file is read in one short read.
  const buffer = Buffer.allocUnsafe(Math.min(read.expected, read.maxBytes) + 1);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const bytesRead = readSync(fd, buffer, 0, buffer.length, null);
    total += bytesRead;
    if (total > read.maxBytes) throw tooLarge(read.file, read.what, total, read.maxBytes);
    // A regular file reads short only at its end, so a short read is the last one.
    if (bytesRead < buffer.length) {
      const last = buffer.subarray(0, bytesRead);
      return chunks.length === 0 ? last : Buffer.concat([...chunks, last], total);
    }
    chunks.push(Buffer.from(buffer));
  }
}

function tooLarge(file: string, what: string, size: number, maxBytes: number): FileAccessError {
  return new FileAccessError(`${what} ${file} is ${size} bytes or more, over the ${maxBytes}-byte limit`, 'too-large', size);
}

/**
 * The git repository around `cwd`: the nearest directory holding `.git` (a directory or a
 * worktree's file), or null outside one.
 */
export async function repositoryRoot(cwd: string): Promise<string | null> {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (await pathExists(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** @returns the real path (symlinks resolved) of `dir`, a root reads are contained in; `dir` itself when it cannot be resolved. */
export async function realRoot(dir: string): Promise<string> {
  return realpath(dir).catch(() => dir);
}

export interface WriteOptions {
  /** Replace an existing regular file (default). When false, an existing entry of any kind is an error. */
  overwrite?: boolean;
  /** Mode of a new file (default 0o666 less the umask); an overwritten file keeps its own. */
  mode?: number;
}

let tempCounter = 0;

/**
 * Writes `text` to `file` atomically and never through a symlink: a temp file beside it,
 * created exclusively (`wx`), fsync, then rename, or, when the file must not exist yet,
 * a hard link, which fails rather than replace anything (a dangling symlink included).
 * @throws FileAccessError for a symlink or non-regular target; an EEXIST error when `overwrite` is false and it exists
 */
export async function writeFileAtomic(file: string, text: string, options: WriteOptions = {}): Promise<void> {
  const overwrite = options.overwrite ?? true;
  // A relative `file` is written from process.cwd(), the run's directory, and named as given.
  const target = resolve(file);
  const existing = await lstat(target).catch(() => null);
  if (existing?.isSymbolicLink()) throw new FileAccessError(`${file} is a symlink; refusing to write through it`, 'symlink');
  if (existing && !existing.isFile()) throw new FileAccessError(`${file} is not a regular file; refusing to write it`, 'not-regular');
  if (existing && !overwrite) throw Object.assign(new Error(`${file} exists`), { code: 'EEXIST' });
  const dir = dirname(file);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${++tempCounter}.tmp`);
  try {
    const handle = await open(temp, 'wx', existing ? existing.mode & 0o777 : (options.mode ?? 0o666)).catch((error: unknown) => {
      throw writeError(error, file, dir);
    });
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (overwrite) await rename(temp, target);
    else await link(temp, target);
  } finally {
    // After a rename the temp name is gone already; after a link (or a failure) it is removed here.
    await rm(temp, { force: true });
  }
  await syncDirectory(dirname(target));
}

/** The temp file's name is ours, not the user's: an error names the file and its directory. */
function writeError(error: unknown, file: string, dir: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return Object.assign(new Error(`cannot write ${file}: the directory ${dir} does not exist (create it first)`), { code });
  if (code === 'ENOTDIR') return Object.assign(new Error(`cannot write ${file}: ${dir} is not a directory`), { code });
  if (code === 'EACCES' || code === 'EPERM') return Object.assign(new Error(`cannot write ${file}: no permission to create files in ${dir}`), { code });
  return error instanceof Error ? error : new Error(String(error));
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not every platform can fsync a directory (Windows); the rename itself is still atomic.
  }
}
