import { compareStrings } from '../comparable-domain.js';
import type { Diagnostic, MessagePart, Severity, SourcePos } from './types.js';
import { flatString } from '../text.js';

/** Builds a diagnostic at a position. */
export function diagnosticAt(pos: SourcePos, severity: Severity, code: string, message: string): Diagnostic {
  return { file: pos.file, line: pos.line, column: pos.column, severity, code, message: flatString(message) };
}

/** Builds a diagnostic at a position whose message names other files (kept as {@link Diagnostic.parts}, to be renamed where it is shown). */
export function diagnosticNaming(pos: SourcePos, severity: Severity, code: string, parts: readonly MessagePart[]): Diagnostic {
  return { ...diagnosticAt(pos, severity, code, wordMessage(parts)), parts };
}

/**
 * @param name how to name each file (by default as the parts name it: from the run's base)
 * @returns the message `parts` word: `file:line:col` for a file at a place, else the file
 */
export function wordMessage(parts: readonly MessagePart[], name: (file: string) => string = (file) => file): string {
  const worded = parts.map((part) => (typeof part === 'string' ? part : `${name(part.file)}${part.line === undefined ? '' : `:${part.line}:${part.column ?? 1}`}`));
  return flatString(worded.join(''));
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
