/**
 * Finds policy files under the paths a user gave. Directories are walked (skipping
 * node_modules, .git and our own state directory); a path that names a file is taken as is,
 * whatever its name, so `validate some/odd-name.yaml` works. {@link policyPathRule} is that rule
 * as a predicate over paths, the one the git readers (history, --prune-from, --changed-since) use.
 *
 * A policy file inside a git submodule (or any repository nested in this one) is an error: its
 * history is not this repository's, so a deletion there could never be pruned.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path, { posix } from 'node:path';
import { compareStrings } from '../comparable-domain.js';
import { repositoryRoot } from '../files.js';
import { relativePosix } from '../relative-path.js';
import { diagnosticAt, diagnosticNaming, filePos } from './format.js';
import type { Diagnostic } from './types.js';

/** Directory names never descended into. */
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '.autojoin-sync']);

const POLICY_FILE_NAME = /^(?:.+\.)?autojoin\.ya?ml$/;

/** @returns true for `autojoin.yaml`, `*.autojoin.yaml` and their `.yml` forms. */
export function isPolicyFileName(name: string): boolean {
  return POLICY_FILE_NAME.test(name);
}

/**
 * The one "is this a policy file" rule: a path given by name, whatever its name, or a file with a
 * policy file's name under a given directory, with no skipped directory (node_modules, .git,
 * .autojoin-sync) between the two.
 * @param given the paths as given, POSIX, relative to one directory (`.` or `''`: all of it)
 * @returns the predicate, over POSIX paths relative to that same directory
 */
export function policyPathRule(given: readonly string[]): (file: string) => boolean {
  const roots = given.map((entry) => {
    const normal = posix.normalize(entry).replace(/\/+$/, '');
    return normal === '.' ? '' : normal;
  });
  return (file) => {
    const normal = posix.normalize(file);
    return roots.some((root) => normal === root || (root === '' ? isPolicyBelow(normal) : normal.startsWith(`${root}/`) && isPolicyBelow(normal.slice(root.length + 1))));
  };
}

/** A policy file's name at the end of `relative`, and no skipped directory on the way. */
function isPolicyBelow(relative: string): boolean {
  const parts = relative.split('/');
  return isPolicyFileName(parts[parts.length - 1] ?? '') && !parts.slice(0, -1).some((part) => SKIPPED_DIRECTORIES.has(part) || part === '..');
}

export interface Discovery {
  /**
   * Paths relative to cwd, POSIX (as {@link relativePosix} gives them), sorted, without
   * duplicates: the names the loader's sources and diagnostics carry, so a file's name is one
   * string for the whole run (the load holds every file's until it ends), not that and its absolute path.
   */
  files: string[];
  diagnostics: Diagnostic[];
}

/**
 * @param paths files or directories, relative to `cwd` or absolute
 * @returns the policy files found; a missing path, or a policy file inside a git submodule, is a
 *   diagnostic, not an exception
 */
export async function discoverPolicyFiles(paths: readonly string[], cwd: string): Promise<Discovery> {
  const found = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const repository = await repositoryRoot(cwd);
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    const info = await stat(absolute).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    if (info instanceof Error) {
      diagnostics.push(pathNotFound(info, absolute, cwd));
      continue;
    }
    const outer = repository === null ? null : nestedRepository(repository, info.isDirectory() ? absolute : path.dirname(absolute));
    const walked = info.isDirectory() ? walk(absolute, '', outer) : [{ file: absolute, nested: outer }];
    for (const { file, nested, badName, misnamed } of walked) {
      if (badName) diagnostics.push(controlInName(file, cwd));
      else if (misnamed) diagnostics.push(notAPolicyName(file, cwd));
      else if (nested === null) found.add(file);
      else diagnostics.push(inSubmodule(file, nested, cwd));
    }
  }
  return { files: sortByRelativePath([...found], cwd), diagnostics: [...new Map(diagnostics.map((d) => [`${d.file}:${d.code}`, d])).values()] };
}

/** @returns the directory from `directory` up to (not including) `repository` that holds a `.git` of its own, or null. */
function nestedRepository(root: string, directory: string): string | null {
  // Compared as strings below: a root given as `/repo/` must stop the walk at `/repo`.
  const repository = path.resolve(root);
  if (!isInsideOrSame(repository, directory)) return null;
  for (let dir = directory; dir !== repository && path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
  }
  return isSubmoduleRoot(repository) ? repository : null;
}

/** A submodule's `.git` is a file pointing into its superproject's `.git/modules/` (a worktree's points into `worktrees/`). */
function isSubmoduleRoot(repository: string): boolean {
  try {
    return /^gitdir: .*[\\/]modules[\\/]/m.test(readFileSync(path.join(repository, '.git'), 'utf8'));
  } catch {
    return false;
  }
}

function isInsideOrSame(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

function controlInName(file: string, cwd: string): Diagnostic {
  return diagnosticAt(
    filePos(relativePosix(cwd, file)), // escaped where it is printed, as every diagnostic
    'error',
    'policy-file-name',
    'the name of this policy file holds a line break or another control character: rename it (it is not read, and would not show as itself in any output)',
  );
}

function inSubmodule(file: string, nested: string, cwd: string): Diagnostic {
  const where = { file: relativePosix(cwd, nested) };
  return diagnosticNaming(filePos(relativePosix(cwd, file)), 'error', 'policy-in-submodule', [
    'policy file inside the git submodule ',
    where,
    ": its history is not this repository's, so pruning could never see it deleted; move the file into this repository, or leave ",
    where,
    ' out of the paths',
  ]);
}

/**
 * The paths that cannot be read, checked alone (no directory walk), so a command can refuse a
 * wrong path before it connects to anything; discoverPolicyFiles reports them the same way.
 * @returns one `path-not-found` diagnostic per such path
 */
export async function unreadablePaths(paths: readonly string[], cwd: string): Promise<Diagnostic[]> {
  const checked = await Promise.all(
    paths.map(async (given) => {
      const absolute = path.resolve(cwd, given);
      const problem = await stat(absolute).then(
        () => null,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
      return problem === null ? null : pathNotFound(problem, absolute, cwd);
    }),
  );
  return checked.filter((diagnostic) => diagnostic !== null);
}

function pathNotFound(error: Error, absolute: string, cwd: string): Diagnostic {
  const reason = 'code' in error && error.code === 'ENOENT' ? 'no such file or directory' : error.message;
  return diagnosticAt(filePos(relativePosix(cwd, absolute)), 'error', 'path-not-found', reason);
}

/** A file the walk found, and the nested repository (submodule) it lies in, if any. */
interface Walked {
  file: string;
  nested: string | null;
  /** A policy file's name that holds a line break or another control character: an error, never skipped in silence. */
  badName?: boolean;
  /** A YAML file that reads as a policy (top-level `scope:` and `domains:`) under a name discovery skips: a warning, never skipped in silence. */
  misnamed?: boolean;
}

/** A name that would be a policy file's but for a control character in it (`a\nb.autojoin.yaml`). */
const CONTROL_IN_NAME = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const POLICY_SUFFIX = /autojoin\.ya?ml$/u;

// Blocking calls, like the reads in load.ts: a directory listing takes microseconds, where a
// round trip through the thread pool per directory adds up to most of the walk on a busy machine.
/**
 * @param relative `directory` relative to the walk's start (POSIX, `''` at the start)
 * @param nested the nested repository `directory` lies in; a directory below the start that
 *   holds `.git` starts one
 */
function walk(directory: string, relative: string, nested: string | null, files: Walked[] = []): Walked[] {
  const entries = readdirSync(directory, { withFileTypes: true });
  const inside = nested ?? (relative !== '' && entries.some((entry) => entry.name === '.git') ? directory : null);
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    const below = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(full, below, inside, files);
    } else if (CONTROL_IN_NAME.test(entry.name) && POLICY_SUFFIX.test(entry.name)) {
      files.push({ file: full, nested: inside, badName: true });
    } else if (isPolicyBelow(below) && (entry.isFile() || !isDirectoryLink(full))) {
      // Anything else with a policy file's name is read, so a FIFO, a device or a symlink out
      // of the repository is reported by the reader (src/files.ts) instead of silently skipped.
      files.push({ file: full, nested: inside });
    } else if (entry.isFile() && YAML_NAME.test(entry.name) && entry.name !== PROJECT_FILE_NAME && readsAsPolicy(full)) {
      files.push({ file: full, nested: inside, misnamed: true });
    }
  }
  return files;
}

const YAML_NAME = /\.ya?ml$/u;
const PROJECT_FILE_NAME = 'autojoin-sync.yaml';

/** The first 4 KiB hold a top-level `scope:` and `domains:`: a policy under another name (`ops.yaml`), not a workflow or a compose file. */
function readsAsPolicy(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(4096);
    const head = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    return /^scope:/mu.test(head) && /^domains:/mu.test(head);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function notAPolicyName(file: string, cwd: string): Diagnostic {
  const name = path.basename(file).replace(YAML_NAME, '');
  return diagnosticAt(
    filePos(relativePosix(cwd, file)),
    'warning',
    'not-a-policy-file-name',
    `not read: it looks like a policy, but only autojoin.yaml, *.autojoin.yaml or .yml are policy files; rename it to ${name}.autojoin.yaml to have it read`,
  );
}

// Symlinked directories are not followed (no loops). A link that cannot be followed is read, and reported.
function isDirectoryLink(full: string): boolean {
  try {
    return statSync(full).isDirectory();
  } catch {
    return false;
  }
}

// Each path is made relative once, not twice per comparison (10,000 files need ~130,000 comparisons).
function sortByRelativePath(files: readonly string[], cwd: string): string[] {
  return files.map((file) => relativePosix(cwd, file)).sort(compareStrings);
}
