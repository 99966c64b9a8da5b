/** Where the CLI's text names a file: from the working directory, not the run's base. */
import { resolve } from 'node:path';
import { relativePosix } from '../relative-path.js';
import type { Diagnostic } from '../policy/types.js';

/**
 * Diagnostics as a person reads them where they typed the command: each file named relative to
 * the working directory, so `teams/eng$ autojoin-sync validate .` names `eng.autojoin.yaml:5:5`, a
 * path that can be copied there. A run names its files relative to its base (the repository
 * root: plans, JSON, SARIF and the action's annotations keep that); only the CLI's text differs.
 * @param base the run's base (`RunSettings.base`); without it, files are shown as they are named
 */
export function shownHere(diagnostics: readonly Diagnostic[], base: string | undefined, cwd = process.cwd()): readonly Diagnostic[] {
  if (base === undefined || resolve(base) === resolve(cwd)) return diagnostics;
  return diagnostics.map((d) => ({ ...d, file: fileShownHere(d.file, base, cwd) }));
}

/** @returns `file` (named from `base`, as a run names it) as named from the working directory: `who`'s file:line, the preamble's files. */
export function fileShownHere(file: string, base: string, cwd = process.cwd()): string {
  return resolve(base) === resolve(cwd) ? file : relativePosix(cwd, resolve(base, file));
}
