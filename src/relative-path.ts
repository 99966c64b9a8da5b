/**
 * A file's name relative to a directory, with POSIX separators: the one spelling every
 * diagnostic, plan and summary names a file by (the policy loader's sources, the git readers,
 * the preamble, the action's annotations). A leaf: both front ends name files with it.
 */
import path from 'node:path';
import { relativeBelow } from './files.js';
import { ownString } from './text.js';

/** @returns `file` relative to `cwd`, with POSIX separators; a string of its own (every policy keeps its file's name, not the absolute path it was cut from). */
export function relativePosix(cwd: string, file: string): string {
  const below = relativeBelow(cwd, file);
  if (below !== undefined) return below === '' ? '.' : ownString(below);
  const relative = path.relative(cwd, file);
  return (relative === '' ? '.' : relative).split(path.sep).join('/');
}
