/**
 * A secret written into a policy file would be sent to the service (as a name or metadata) and
 * shown in every plan, saved plan and comment made from it; so a file that holds the value of a
 * configured secret is an error, at each place it stands, and the message names only the secret.
 */
import type { Diagnostic, PolicySource } from './types.js';

/** A configured secret: the name users know it by, e.g. AUTOJOIN_API_KEY, and its value. */
export interface NamedSecret {
  name: string;
  value: string;
}

/** Shorter values are left out: they would match ordinary text (a real key is far longer). */
export const MIN_SECRET_LENGTH = 8;

/** @returns an error at every place in the file's text where a secret's value stands. */
export function secretDiagnostics(source: PolicySource, secrets: readonly NamedSecret[]): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const secret of secrets) {
    if (secret.value.length < MIN_SECRET_LENGTH) continue;
    for (let at = source.text.indexOf(secret.value); at !== -1; at = source.text.indexOf(secret.value, at + secret.value.length)) {
      found.push({
        ...positionOf(source, at),
        severity: 'error',
        code: 'secret-in-policy',
        message: `holds the value of ${secret.name}: a secret must never be written into a policy file (it would be sent to the service and shown in every plan); take it out`,
      });
    }
  }
  return found;
}

function positionOf(source: PolicySource, offset: number): { file: string; line: number; column: number } {
  const before = source.text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { file: source.file, line: before.split('\n').length, column: offset - lineStart + 1 };
}
