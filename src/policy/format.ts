import { compareStrings } from '../comparable-domain.js';
import type { Diagnostic, Severity, SourcePos } from './types.js';
import { flatString, plural } from '../text.js';

/** Builds a diagnostic at a position. */
export function diagnosticAt(pos: SourcePos, severity: Severity, code: string, message: string): Diagnostic {
  return { file: pos.file, line: pos.line, column: pos.column, severity, code, message: flatString(message) };
}

/** The position of a whole file (used for problems that have no better place, e.g. an empty file). */
export function filePos(file: string): SourcePos {
  return { file, line: 1, column: 1 };
}

/**
 * @returns the one-line form every tool understands: `file:line:col: error: message`.
 */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
}

/** Orders diagnostics by file, line, column, then message, so output is stable. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return compareStrings(a.file, b.file) || a.line - b.line || a.column - b.column || compareStrings(a.message, b.message);
}

/** @returns how many errors and warnings a list holds. */
export function countDiagnostics(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  for (const d of diagnostics) if (d.severity === 'error') errors += 1;
  return { errors, warnings: diagnostics.length - errors };
}

/** @returns e.g. `3 errors, 1 warning in 12 files`. */
export function summarizeDiagnostics(diagnostics: readonly Diagnostic[], fileCount: number): string {
  const { errors, warnings } = countDiagnostics(diagnostics);
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${plural(fileCount, 'file')}`;
}

