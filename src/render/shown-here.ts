/** Where the CLI's text names a file: from the working directory, not the run's base. */
import { resolve } from 'node:path';
import { relativePosix } from '../relative-path.js';
import { wordMessage } from '../policy/format.js';
import type { Diagnostic } from '../policy/types.js';

/**
 * Diagnostics as a person reads them where they typed the command: each file named relative to
 * the working directory, so `teams/eng$ autojoin-sync validate .` names `eng.autojoin.yaml:5:5`, a
 * path that can be copied there, and so does the message (`also declared at ../ops.autojoin.yaml:1:1`).
 * A run names its files relative to its base (the repository root: plans, JSON, SARIF and the
 * action's annotations keep that); only the CLI's text differs.
 * @param base the run's base (`RunSettings.base`); without it, files are shown as they are named
 */
export function shownHere(diagnostics: readonly Diagnostic[], base: string | undefined, cwd = process.cwd()): readonly Diagnostic[] {
  if (base === undefined || resolve(base) === resolve(cwd)) return diagnostics;
  return renamedDiagnostics(diagnostics, (file) => fileShownHere(file, base, cwd));
}

/** @returns `file` (named from `base`, as a run names it) as named from the working directory: `who`'s file:line, the preamble's files. */
export function fileShownHere(file: string, base: string, cwd = process.cwd()): string {
  return resolve(base) === resolve(cwd) ? file : relativePosix(cwd, resolve(base, file));
}

/**
 * The one way to name a diagnostic's files from elsewhere (the working directory, the action's
 * workspace): its own file and every file its message names (`Diagnostic.parts`).
 * @param name a file as the diagnostics name it, as it is to be shown
 */
export function renamedDiagnostics(diagnostics: readonly Diagnostic[], name: (file: string) => string): Diagnostic[] {
  return diagnostics.map((d) => {
    const parts = d.parts?.map((part) => (typeof part === 'string' ? part : { ...part, file: name(part.file) }));
    return { ...d, file: name(d.file), ...(parts ? { parts, message: wordMessage(parts) } : {}) };
  });
}
