/**
 * Finds policy files under the paths a user gave. Directories are walked (skipping
 * node_modules, .git and our own state directory); a path that names a file is taken as is,
 * whatever its name, so `validate some/odd-name.yaml` works.
 */
import { readdirSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { compareStrings } from '../domain.js';
import { diagnosticAt, filePos } from './format.js';
import type { Diagnostic } from './types.js';

/** Directory names never descended into. */
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '.autojoin-sync']);

const POLICY_FILE_NAME = /^(?:.+\.)?autojoin\.ya?ml$/;

/** @returns true for `autojoin.yaml`, `*.autojoin.yaml` and their `.yml` forms. */
export function isPolicyFileName(name: string): boolean {
  return POLICY_FILE_NAME.test(name);
}

/** @returns `file` relative to `cwd`, with POSIX separators. */
export function relativePosix(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return (relative === '' ? '.' : relative).split(path.sep).join('/');
}

export interface Discovery {
  /** Absolute paths, sorted by their path relative to cwd, without duplicates. */
  files: string[];
  diagnostics: Diagnostic[];
}

/**
 * @param paths files or directories, relative to `cwd` or absolute
 * @returns the policy files found; a missing path is a diagnostic, not an exception
 */
export async function discoverPolicyFiles(paths: readonly string[], cwd: string): Promise<Discovery> {
  const found = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    const info = await stat(absolute).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    if (info instanceof Error) {
      diagnostics.push(pathNotFound(info, absolute, cwd));
    } else if (info.isDirectory()) {
      for (const file of walk(absolute)) found.add(file);
    } else {
      found.add(absolute);
    }
  }
  return { files: sortByRelativePath([...found], cwd), diagnostics };
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

// Blocking calls, like the reads in load.ts: a directory listing takes microseconds, where a
// round trip through the thread pool per directory adds up to most of the walk on a busy machine.
function walk(directory: string, files: string[] = []): string[] {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(full, files);
    } else if (isPolicyFileName(entry.name) && (entry.isFile() || !isDirectoryLink(full))) {
      // Anything else with a policy file's name is read, so a FIFO, a device or a symlink out
      // of the repository is reported by the reader (src/files.ts) instead of silently skipped.
      files.push(full);
    }
  }
  return files;
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
  return files
    .map((file) => ({ file, relative: relativePosix(cwd, file) }))
    .sort((a, b) => compareStrings(a.relative, b.relative))
    .map(({ file }) => file);
}
