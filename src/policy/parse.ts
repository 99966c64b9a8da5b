/**
 * Turns a policy file's bytes into YAML documents with source positions, refusing the
 * YAML hazards up front so nothing later can hang or mislead: files over a size cap,
 * bytes that are not UTF-8, duplicate keys, tabs as indentation, alias bombs (aliases are
 * only expanded up to a small count), empty files and documents that are not mappings.
 */
import { LineCounter, parseAllDocuments, visit, isMap, isScalar, isSeq, type Document, type YAMLError } from 'yaml';
import { diagnosticAt, filePos } from './format.js';
import type { Diagnostic, PolicySource, SourcePos } from './types.js';
import { FileAccessError } from '../files.js';

/** Largest policy or project file read, in bytes; real files are a few hundred bytes. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Most alias expansions one document may need; a policy file has no reason for more. */
const MAX_ALIAS_COUNT = 16;

/** One YAML document that is a mapping without syntax errors, with its plain data. */
export interface ParsedDocument {
  file: string;
  doc: Document.Parsed;
  lineCounter: LineCounter;
  /** Where the document's content starts. */
  start: SourcePos;
  /** The document as plain data (aliases expanded). */
  data: Record<string, unknown>;
  /**
   * Where the fast path (plain.ts) saw each key and value, by {@link pathKey}: lets `locate`
   * answer without building the `yaml` document. Absent for documents the `yaml` library read.
   */
  positions?: ReadonlyMap<string, KeyValuePos>;
}

/** Where a mapping key and its value start (a list item's key is its value). */
export interface KeyValuePos {
  key: SourcePos;
  value: SourcePos;
}

/** @returns the map key of a data path (keys and list indexes), e.g. `domains\u00003`. */
export function pathKey(path: readonly (string | number)[]): string {
  return path.join('\u0000');
}

export interface ParsedSource {
  /** Mapping documents without errors, in file order. */
  documents: ParsedDocument[];
  /** Every YAML document of the file, including empty ones (what `fmt` rewrites). */
  yamlDocuments: Document.Parsed[];
  diagnostics: Diagnostic[];
}

export type Decoded = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

// One decoder for every file: without `stream`, each decode call starts afresh.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes a file's bytes as strict UTF-8 (a BOM is dropped), refusing files over the size cap. */
export function decodePolicyBytes(file: string, bytes: Uint8Array): Decoded {
  if (bytes.length > MAX_FILE_BYTES) return { ok: false, diagnostic: tooLarge(file, bytes.length) };
  try {
    return { ok: true, text: strictUtf8.decode(bytes) };
  } catch {
    return { ok: false, diagnostic: notUtf8(file, bytes) };
  }
}

/** @returns the diagnostic for a file over {@link MAX_FILE_BYTES}. */
export function tooLarge(file: string, size: number): Diagnostic {
  const message = `file is ${size} bytes, over the ${MAX_FILE_BYTES}-byte limit for a policy file`;
  return diagnosticAt(filePos(file), 'error', 'file-too-large', message);
}

/** @returns the diagnostic for a file that could not be read safely (src/files.ts). */
export function fileDiagnostic(file: string, error: unknown): Diagnostic {
  if (error instanceof FileAccessError && error.problem === 'too-large') return tooLarge(file, error.size ?? MAX_FILE_BYTES + 1);
  const code = error instanceof FileAccessError && error.problem !== 'read-error' ? 'unsafe-file' : 'read-error';
  const message = error instanceof FileAccessError ? error.message : `cannot read file: ${(error as Error).message}`;
  return diagnosticAt(filePos(file), 'error', code, message);
}

function notUtf8(file: string, bytes: Uint8Array): Diagnostic {
  const lenient = new TextDecoder('utf-8').decode(bytes);
  const prefix = lenient.slice(0, Math.max(0, lenient.indexOf('\uFFFD')));
  const lines = prefix.split('\n');
  const pos = { file, line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
  return diagnosticAt(pos, 'error', 'not-utf8', 'file is not valid UTF-8 text; save it as UTF-8');
}

/** Parses every YAML document of a source; problems become diagnostics, never exceptions. */
export function parseYamlSource(source: PolicySource): ParsedSource {
  const { file, text } = source;
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_FILE_BYTES) return { documents: [], yamlDocuments: [], diagnostics: [tooLarge(file, size)] };
  if (text.trim() === '') return onlyDiagnostic(emptyFile(file, 'file is empty'));
  const lineCounter = new LineCounter();
  const yamlDocuments = parseAllDocuments(text, {
    prettyErrors: true,
    uniqueKeys: true,
    strict: true,
    lineCounter,
  });
  if (!Array.isArray(yamlDocuments)) return onlyDiagnostic(emptyFile(file, 'file holds only comments'));
  const documents: ParsedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const doc of yamlDocuments) {
    const result = readDocument(doc, file, text, lineCounter);
    if ('data' in result) documents.push(result);
    else diagnostics.push(...result.diagnostics);
  }
  if (documents.length === 0 && diagnostics.length === 0) {
    diagnostics.push(emptyFile(file, 'file holds no policy, only comments or empty documents'));
  }
  return { documents, yamlDocuments, diagnostics };
}

function onlyDiagnostic(diagnostic: Diagnostic): ParsedSource {
  return { documents: [], yamlDocuments: [], diagnostics: [diagnostic] };
}

function emptyFile(file: string, what: string): Diagnostic {
  const message = `${what}; a policy file needs at least one policy (scope, componentId, domains)`;
  return diagnosticAt(filePos(file), 'error', 'empty-file', message);
}

function readDocument(
  doc: Document.Parsed,
  file: string,
  text: string,
  lineCounter: LineCounter,
): ParsedDocument | { diagnostics: Diagnostic[] } {
  const at = (offset: number): SourcePos => positionAt(file, lineCounter, offset);
  if (doc.errors.length > 0) return { diagnostics: doc.errors.map((e) => yamlErrorDiagnostic(e, doc, text, at)) };
  if (isEmptyDocument(doc) || !doc.contents) return { diagnostics: [] };
  const start = at(doc.contents.range[0]);
  if (!isMap(doc.contents)) {
    const got = isSeq(doc.contents) ? 'a list' : 'a single value';
    const message = `a policy document must be a mapping of keys (scope, scopeType, componentId, domains), got ${got}`;
    return { diagnostics: [diagnosticAt(start, 'error', 'not-a-mapping', message)] };
  }
  try {
    const data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Record<string, unknown>;
    return { file, doc, lineCounter, start, data };
  } catch (error) {
    return { diagnostics: [aliasDiagnostic(doc, error, at) ?? diagnosticAt(start, 'error', 'yaml-syntax', String(error))] };
  }
}

// `---` with nothing after it parses as a zero-width null scalar.
function isEmptyDocument(doc: Document.Parsed): boolean {
  const contents = doc.contents;
  return contents === null || (isScalar(contents) && contents.value === null && contents.range[0] === contents.range[1]);
}

function aliasDiagnostic(doc: Document.Parsed, error: unknown, at: (offset: number) => SourcePos): Diagnostic | null {
  if (!(error instanceof ReferenceError)) return null;
  let offset = doc.contents?.range[0] ?? 0;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0] ?? offset;
      return visit.BREAK;
    },
  });
  const message = `too many alias expansions (over ${MAX_ALIAS_COUNT}); a policy file has no need for anchors and aliases`;
  return diagnosticAt(at(offset), 'error', 'alias-limit', message);
}

/** @returns the 1-based position of a character offset. */
export function positionAt(file: string, lineCounter: LineCounter, offset: number): SourcePos {
  const { line, col } = lineCounter.linePos(offset);
  return { file, line, column: col };
}

function yamlErrorDiagnostic(
  error: YAMLError,
  doc: Document.Parsed,
  text: string,
  at: (offset: number) => SourcePos,
): Diagnostic {
  const pos = at(error.pos[0]);
  if (error.code === 'DUPLICATE_KEY') {
    const key = /^[^:\n]*/.exec(text.slice(error.pos[0]))?.[0].trim() ?? '';
    const first = firstKeyLine(doc, key, error.pos[0], at);
    const where = first ? ` (first at line ${first})` : '';
    return diagnosticAt(pos, 'error', 'duplicate-key', `duplicate key "${key}"${where}; a key may appear only once in a document`);
  }
  if (error.code === 'TAB_AS_INDENT') {
    return diagnosticAt(pos, 'error', 'tab-indent', 'tab used for indentation; YAML indents with spaces only');
  }
  const firstLine = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  return diagnosticAt(pos, 'error', 'yaml-syntax', `invalid YAML: ${firstLine}`);
}

function firstKeyLine(doc: Document.Parsed, key: string, before: number, at: (offset: number) => SourcePos): number | null {
  if (!isMap(doc.contents)) return null;
  for (const pair of doc.contents.items) {
    const node = pair.key as { value?: unknown; range?: [number, number, number] } | null;
    if (node?.range && String(node.value) === key && node.range[0] < before) return at(node.range[0]).line;
  }
  return null;
}
