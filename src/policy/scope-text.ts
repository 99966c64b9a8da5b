/**
 * Scope ids and types are shown to reviewers in every plan and comment, and a look-alike id
 * (`teаm/acme-eng` with a Cyrillic а) names another scope than the one a reviewer reads. They are
 * held to the mixed-script rule of domains (homographs.ts), wherever they are written: a policy
 * file, the project file's defaults, a TYPE/ID argument (src/scope.ts).
 */
import { diagnosticAt } from './format.js';
import { scopeTextProblem } from '../scope.js';
import { locate, type DataPath } from './locate.js';
import type { ParsedDocument } from './parse.js';
import type { Diagnostic } from './types.js';

/** @returns an error at each of `paths` (in the document's data) whose string value is a look-alike. */
export function scopeTextDiagnostics(parsed: ParsedDocument, paths: readonly DataPath[]): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const path of paths) {
    const value = valueAt(parsed.data, path);
    if (typeof value !== 'string') continue;
    const problem = scopeTextProblem(path.at(-1) === 'scope' ? 'scope' : 'scopeType', value);
    if (problem) found.push(diagnosticAt(locate(parsed, path), 'error', 'homograph', problem));
  }
  return found;
}

function valueAt(data: unknown, path: DataPath): unknown {
  let value = data;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
