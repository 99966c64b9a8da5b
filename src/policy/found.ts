/**
 * No empty success: a path that holds no policy file (a typo, the wrong checkout path) must not
 * end in "No changes". validate, plan, apply and fmt all check the paths they loaded with this.
 */
import path from 'node:path';
import { hint, worded } from '../hint.js';
import { relativePosix } from '../relative-path.js';
import type { Diagnostic, LoadResult } from './types.js';

/** The paths a command was given hold no policy file, or their files declare no policy. */
export class NoPoliciesError extends Error {
  constructor(readonly paths: string[], filesFound: boolean) {
    const what = filesFound ? 'no policies in the policy files' : 'no policy files (autojoin.yaml, *.autojoin.yaml or .yml)';
    super(worded`${what} under ${paths.join(', ')}; nothing was done. Check the path, or pass ${hint('allowNoPolicies', true)} when that is intended (e.g. to prune every scope)`);
    this.name = 'NoPoliciesError';
  }
}

/**
 * @param paths the paths as given (relative to cwd, or absolute); [] means cwd
 * @returns the given paths under which no policy file was loaded, as given
 */
export function pathsWithoutPolicyFiles(paths: readonly string[], files: readonly string[], cwd: string): string[] {
  return (paths.length > 0 ? paths : ['.']).filter((given) => {
    const prefix = relativePosix(cwd, path.resolve(cwd, given));
    return !files.some((file) => prefix === '.' || file === prefix || file.startsWith(`${prefix}/`));
  });
}

/**
 * Throws unless every path holds a policy file and the files declare at least one policy.
 * @param allow `--allow-no-policies`: never throws
 * @throws NoPoliciesError naming the empty paths
 */
export function checkPoliciesFound(paths: readonly string[], load: LoadResult, cwd: string, allow = false): void {
  if (allow) return;
  checkPolicyFilesFound(paths, load.files, cwd);
  if (load.policyCount === 0) throw new NoPoliciesError(paths.length > 0 ? [...paths] : ['.'], true);
}

/**
 * Throws unless every path holds a policy file (fmt, which reads files but no policies).
 * @param files the policy files found, relative to cwd
 * @param allow `--allow-no-policies`: never throws
 * @throws NoPoliciesError naming the empty paths
 */
export function checkPolicyFilesFound(paths: readonly string[], files: readonly string[], cwd: string, allow = false): void {
  if (allow) return;
  const empty = pathsWithoutPolicyFiles(paths, files, cwd);
  if (empty.length > 0) throw new NoPoliciesError(empty, false);
}

/**
 * With `--allow-no-policies` a path that is gone is no error either: deleting every policy file
 * of a directory removes the directory from a fresh checkout (git keeps no empty directories).
 * @returns the diagnostics, `path-not-found` as a warning when `allow` is set
 */
export function tolerateMissingPaths(diagnostics: readonly Diagnostic[], allow = false): Diagnostic[] {
  if (!allow) return [...diagnostics];
  return diagnostics.map((d) => (d.code === 'path-not-found' ? { ...d, severity: 'warning' } : d));
}
