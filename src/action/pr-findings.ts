/**
 * A pull request's own findings first (docs/governance.md, "Warnings"): the job summary and the sticky comment
 * show the errors and warnings of the files the pull request changed before those of any other
 * file, and only then limit each kind of warning to its first three (the rest counted), so the
 * warnings a pull request brings are never the ones counted away. The changed files are those
 * that differ from the pull request's base commit (the event's `pull_request.base.sha`), found
 * with one git call (src/commands/pull-request-files.ts); outside a pull request, or when git cannot tell (a shallow clone without
 * the base), the order is the files' own.
 */
import type { Diagnostic } from '../policy/types.js';
import { warningLimiter } from '../render/warning-limit.js';

/**
 * @param diagnostics named relative to the workspace, in the files' order
 * @param changed the files the pull request changed (pullRequestFiles)
 * @returns what to show: the changed files' findings first, then the others, every error and the
 *   first three warnings of each kind; and one line per kind counting the warnings left out
 */
export function pullRequestFindings(diagnostics: readonly Diagnostic[], changed: ReadonlySet<string>): { shown: Diagnostic[]; counted: string[] } {
  const own = diagnostics.filter((diagnostic) => changed.has(diagnostic.file));
  const ordered = own.length === 0 ? diagnostics : [...own, ...diagnostics.filter((diagnostic) => !changed.has(diagnostic.file))];
  const limiter = warningLimiter(false, 'the annotations list them all');
  const shown = limiter.take(ordered);
  return { shown, counted: limiter.summary() };
}
