import { compareStrings } from '../comparable-domain.js';
import type { Diagnostic, Severity, SourcePos } from './types.js';
import { flatString } from '../text.js';

/** Builds a diagnostic at a position. */
export function diagnosticAt(pos: SourcePos, severity: Severity, code: string, message: string): Diagnostic {
  return { file: pos.file, line: pos.line, column: pos.column, severity, code, message: flatString(message) };
}

/** The position of a whole file (used for problems that have no better place, e.g. an empty file). */
export function filePos(file: string): SourcePos {
  return { file, line: 1, column: 1 };
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
