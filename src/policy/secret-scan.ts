/**
 * A secret written into a policy file would be sent to the service (as a name or metadata) and
 * shown in every plan, saved plan and comment made from it; so a file that holds the value of a
 * configured secret is an error, at each place it stands, and the message names only the secret.
 *
 * Two looks at each file. Its text, for every form the output redactor knows (src/redact.ts: as
 * written, any case, URL-encoded, base64 alone or inside a longer base64 string, …), which also
 * finds a secret in a comment. And every key and string value after YAML decoding, the same
 * forms again plus the URL-decoded value: a scalar written with escapes (`"\x73k_…"`, `\u…`) or
 * folded over lines does not show the secret in the text, but sends it all the same.
 */
import { secretPattern } from '../redact.js';
import { locate, type DataPath } from './locate.js';
import type { ParsedDocument } from './parse.js';
import type { Diagnostic, PolicySource, SourcePos } from './types.js';

/** A configured secret: the name users know it by, e.g. AUTOJOIN_API_KEY, and its value. */
export interface NamedSecret {
  name: string;
  value: string;
}

/** Shorter values are left out: they would match ordinary text (a real key is far longer). */
export const MIN_SECRET_LENGTH = 8;

/** @returns an error at every place in the file (its text, its decoded keys and values) where a secret stands. */
export function secretDiagnostics(source: PolicySource, documents: readonly ParsedDocument[], secrets: readonly NamedSecret[]): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const secret of secrets) {
    if (secret.value.length < MIN_SECRET_LENGTH) continue;
    const patterns = patternsOf(secret.value);
    if (patterns === null) continue;
    const inText = [...source.text.matchAll(patterns.all)].map((match) => positionOf(source, match.index));
    const lines = new Set(inText.map((pos) => pos.line));
    // A decoded value already found in the text on its own line is reported once, where the text shows it.
    const decoded = documents.flatMap((document) => decodedPlaces(document, patterns.one)).filter((pos) => !lines.has(pos.line));
    for (const pos of [...inText, ...decoded]) found.push(secretError(pos, secret.name));
  }
  return found;
}

/**
 * A secret's pattern twice: global, for `matchAll` (every place in a file's text), and without
 * the global flag, for `test` (whether a value holds it). A global pattern's `test` moves its
 * `lastIndex`, where the next `matchAll` would start: shared by every file of the run, one pattern
 * for both would search the next file only from where a decoded value last matched.
 */
interface SecretPatterns {
  all: RegExp;
  one: RegExp;
}

// Made once a secret for the whole run: a run checks thousands of files against the same secrets.
const patternCache = new Map<string, SecretPatterns | null>();

function patternsOf(value: string): SecretPatterns | null {
  let patterns = patternCache.get(value);
  if (patterns === undefined) {
    const all = secretPattern([value]);
    patterns = all === null ? null : { all, one: new RegExp(all.source, all.flags.replace('g', '')) };
    patternCache.set(value, patterns);
  }
  return patterns;
}

function secretError(pos: SourcePos, name: string): Diagnostic {
  return {
    ...pos,
    severity: 'error',
    code: 'secret-in-policy',
    message: `holds the value of ${name}: a secret must never be written into a policy file, in any encoding (it would be sent to the service and shown in every plan); take it out`,
  };
}

/** @returns where the document's keys and string values hold the secret once decoded. */
function decodedPlaces(document: ParsedDocument, pattern: RegExp): SourcePos[] {
  const places: SourcePos[] = [];
  const visit = (value: unknown, path: DataPath): void => {
    if (typeof value === 'string') {
      if (holds(value, pattern)) places.push(locate(document, path));
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, index]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (holds(key, pattern)) places.push(locate(document, [...path, key], 'key'));
        visit(item, [...path, key]);
      }
    }
  };
  visit(document.data, []);
  return places;
}

/** The value, or the value URL-decoded (`%73%6B…`, `+` for a space), holds a form of the secret. */
function holds(text: string, pattern: RegExp): boolean {
  if (pattern.test(text)) return true;
  if (!/[%+]/u.test(text)) return false;
  const decoded = urlDecoded(text);
  return decoded !== text && pattern.test(decoded);
}

function urlDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/gu, ' '));
  } catch {
    return text;
  }
}

function positionOf(source: PolicySource, offset: number): SourcePos {
  const before = source.text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { file: source.file, line: before.split('\n').length, column: offset - lineStart + 1 };
}
