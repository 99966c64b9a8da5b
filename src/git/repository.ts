/** The git repository around the run's policy paths, and paths between it and the run's cwd. */
import { realpath, stat } from 'node:fs/promises';
import path, { posix } from 'node:path';
import { repositoryRoot } from '../files.js';
import { relativePosix } from '../relative-path.js';
import { runGit } from './command.js';

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
 * @param known the repository facts the run read before (src/run/settings.ts), used when read in the same directory
 * @returns the repository around the paths, or null when they are not in one (nothing to prune)
 */
export async function openRepository(paths: readonly string[], cwd: string, context: string, known?: Repository): Promise<Repository | null> {
  const dir = await existingAncestor(commonDirectory(paths.map((given) => path.resolve(cwd, given))));
  const root = await repositoryRoot(dir);
  if (root === null) return null;
  // The run read these facts already (its head): one `rev-parse` fewer, for each project of a monorepo too.
  const derived = known === undefined ? undefined : await below(known, dir, root);
  return derived === undefined ? readRepository(dir, cwd, context) : { ...derived, cwd };
}

/**
 * @param root the repository root around `dir`, as openRepository found it
 * @returns the facts of `dir` from those of `known` when `dir` is `known.dir` or a folder below it
 *   in the same repository, reached without a symbolic link (git's prefix is of the real path); else undefined
 */
async function below(known: Repository, dir: string, root: string): Promise<Omit<Repository, 'cwd'> | undefined> {
  if (known.dir === dir) return known;
  const rel = path.relative(known.dir, dir);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const [realKnown, realDir, knownRoot] = await Promise.all([realpath(known.dir), realpath(dir), repositoryRoot(known.dir)]);
  if (realDir !== path.join(realKnown, rel) || knownRoot !== root) return undefined;
  return { ...known, dir, prefix: `${known.prefix}${rel.split(path.sep).join('/')}/` };
}

/**
 * The repository facts of `dir` in one `git rev-parse`, whatever `.git` lookup finds.
 * @param cwd the directory paths are given and shown relative to
 * @throws GitRevisionError when git fails (not in a repository, say)
 */
export async function readRepository(dir: string, cwd: string, context: string): Promise<Repository> {
  const answer = await runGit(['rev-parse', '--is-shallow-repository', '--show-prefix', '--revs-only', 'HEAD'], { cwd: dir, context });
  const [shallow, prefix = '', head = ''] = answer.toString('utf8').split('\n');
  return { dir, prefix, shallow: shallow === 'true', head: head === '' ? null : head, cwd };
}

/**
 * The repository around the run's base, read once: for the commit its ownership markers record
 * (`autojoin-sync.commit`, {@link headCommit}), and by pruning when its paths' directory is `dir`.
 * @returns undefined when git cannot read it (outside git)
 */
export async function baseRepository(dir: string): Promise<Repository | undefined> {
  return readRepository(dir, dir, 'ownership marker').catch(() => undefined);
}

/** @returns the full id of the commit HEAD points to, or undefined outside git (or before the first commit) */
export function headCommit(repository: Repository | undefined): string | undefined {
  const id = repository?.head ?? '';
  return /^[0-9a-f]{40,64}$/.test(id) ? id : undefined;
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
