/**
 * A diagnostic as every front end prints it: the one line every tool understands
 * (`file:line:col: error: message`), and the count under a list of them. Plain text, neither
 * escaped nor painted (the printer does that).
 */
import { countDiagnostics } from '../policy/format.js';
import type { Diagnostic } from '../policy/types.js';
import { plural } from '../text.js';

/** @returns the one-line form every tool understands: `file:line:col: error: message`. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
}

/** Diagnostics as a JSON document holds them (schemas/validate-report.schema.json): the message, not the parts it was worded from. */
export function reportedDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map(({ parts: _parts, ...reported }) => reported);
}

/** @returns e.g. `3 errors, 1 warning in 12 files`. */
export function summarizeDiagnostics(diagnostics: readonly Diagnostic[], fileCount: number): string {
  const { errors, warnings } = countDiagnostics(diagnostics);
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${plural(fileCount, 'file')}`;
}
