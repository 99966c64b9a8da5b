/**
 * A fast path for the policy files almost every repository holds: one document of top-level
 * `key: value` lines and a list of plain domains, in printable ASCII. The `yaml` library spends
 * ~80 µs on such a file (lexer, CST, document tree, then plain data), most of `validate`'s time
 * at 10,000 files; this reader takes a few.
 *
 * It accepts only a subset on which it provably agrees with `yaml` (and a differential property
 * test holds it to that): the known scalar keys and `domains`, each once, at column 0; values on
 * one line that are plain words starting with a letter and never `null`/`true`/`false` in any
 * spelling (so YAML 1.2's core schema resolves them to the same string), or quoted without
 * escapes; block items at one indentation, `[]` or `[a, b]`; comments after a value, on their
 * own line, and blank lines. Anything else — multi-line or escaped scalars, anchors, tags, flow
 * mappings, nested mappings (`metadata`), tabs, `---`, non-ASCII — returns null, and the file
 * takes the full `yaml` path, which reports every problem exactly as before.
 *
 * The document tree is still what diagnostics are located in: a fast-path document parses its
 * file with `yaml` on first access to `doc` or `lineCounter`, which happens only when a check
 * has something to report.
 */
import { parseYamlSource, type ParsedDocument, type ParsedSource } from './parse.js';
import type { PolicySource } from './types.js';

const SCALAR_KEYS = new Set(['scope', 'scopeType', 'scopeName', 'componentId']);
const LIST_KEY = 'domains';
// Printable ASCII and line feeds only: no tab, no CR, no byte order mark, nothing to normalize.
const PLAIN_TEXT = /^[\x20-\x7e\n]*$/;
const KEY_LINE = /^([A-Za-z]+):(?: +(.*))?$/;
const ITEM_LINE = /^( *)- +(.*)$/;
const COMMENT_OR_BLANK = /^ *(?:#.*)?$/;
// After a value: trailing spaces, or spaces and a comment.
const END = String.raw`(?: +#.*| *)$`;
// Words of letters, digits, `.`, `_`, `-`, single spaces between: no indicator, no `: ` or ` #`.
const WORDS = String.raw`[A-Za-z][A-Za-z0-9._-]*(?: [A-Za-z0-9._-]+)*`;
const PLAIN_VALUE = new RegExp(`^(${WORDS})${END}`);
// Quoted on one line without escapes: the text between the quotes, as written.
const DOUBLE_QUOTED = new RegExp(String.raw`^"([^"\\]*)"${END}`);
const SINGLE_QUOTED = new RegExp(`^'([^']*)'${END}`);
const FLOW_LIST = new RegExp(String.raw`^\[(.*?)\]${END}`);
const FLOW_ITEM = new RegExp(`^${WORDS}$`);
// What YAML 1.2's core schema resolves to null or a boolean (numbers cannot start with a letter).
const NOT_A_STRING = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
/** Longer files are rare and take the full path; keeps the scan cheap. */
const MAX_PLAIN_LENGTH = 64 * 1024;

/** @returns the file's documents and diagnostics, as {@link parseYamlSource} would give them. */
export function parsePolicyText(source: PolicySource): Pick<ParsedSource, 'documents' | 'diagnostics'> {
  const plain = parsePlainDocument(source);
  return plain ? { documents: [plain], diagnostics: [] } : parseYamlSource(source);
}

/** @returns the file as one document when it lies in the plain subset, else null. */
export function parsePlainDocument(source: PolicySource): ParsedDocument | null {
  const { text } = source;
  if (text.length > MAX_PLAIN_LENGTH || !PLAIN_TEXT.test(text)) return null;
  const read = readLines(text.split('\n'));
  if (read === null) return null;
  return lazyDocument(source, read.data, read.firstLine);
}

interface PlainRead {
  data: Record<string, unknown>;
  /** 1-based line of the first key: where `yaml` says the document's content starts. */
  firstLine: number;
}

/** The line scanner; null as soon as a line falls outside the subset. */
function readLines(lines: readonly string[]): PlainRead | null {
  const data: Record<string, unknown> = {};
  let firstLine = 0;
  let list: { items: string[]; indent: number } | null = null;
  let open: string | null = null; // a `domains:` line waiting for its items
  for (const [index, line] of lines.entries()) {
    if (COMMENT_OR_BLANK.test(line)) continue;
    const item = ITEM_LINE.exec(line);
    if (item) {
      const indent = (item[1] as string).length;
      const value = item[2] as string;
      if (open !== null) {
        list = { items: [], indent };
        data[open] = list.items;
        open = null;
      }
      const scalar = scalarOf(value);
      if (list?.indent !== indent || scalar === null) return null;
      list.items.push(scalar);
      continue;
    }
    const entry = KEY_LINE.exec(line);
    if (!entry || open !== null) return null;
    const key = entry[1] as string;
    if (Object.hasOwn(data, key)) return null;
    const value = valueOf(key, entry[2] ?? '');
    if (value === null) return null;
    if (firstLine === 0) firstLine = index + 1;
    list = null;
    if (value === OPEN_LIST) open = key;
    else data[key] = value;
  }
  return open === null && firstLine !== 0 ? { data, firstLine } : null;
}

const OPEN_LIST = Symbol('open list');

/** @returns the value written after `key: `, OPEN_LIST for `domains:` alone, null outside the subset. */
function valueOf(key: string, text: string): string | string[] | typeof OPEN_LIST | null {
  if (SCALAR_KEYS.has(key)) return scalarOf(text);
  if (key !== LIST_KEY) return null;
  if (text === '' || text.startsWith('#')) return OPEN_LIST;
  const flow = FLOW_LIST.exec(text);
  if (!flow) return null;
  if (flow[1] === '') return [];
  const items = (flow[1] as string).split(', ');
  return items.every((item) => FLOW_ITEM.test(item) && !NOT_A_STRING.has(item)) ? items : null;
}

/** @returns the string a one-line scalar (and its comment) stands for, or null outside the subset. */
function scalarOf(text: string): string | null {
  const plain = PLAIN_VALUE.exec(text)?.[1];
  if (plain !== undefined) return NOT_A_STRING.has(plain) ? null : plain;
  return (DOUBLE_QUOTED.exec(text) ?? SINGLE_QUOTED.exec(text))?.[1] ?? null;
}

/** A ParsedDocument whose `doc` and `lineCounter` come from the full parse, made on first use. */
function lazyDocument(source: PolicySource, data: Record<string, unknown>, firstLine: number): ParsedDocument {
  let full: ParsedDocument | undefined;
  const fullDocument = (): ParsedDocument => {
    full ??= parseYamlSource(source).documents[0];
    if (!full) throw new Error(`internal error: ${source.file} passed the plain-YAML fast path but not the YAML parser`);
    return full;
  };
  return {
    file: source.file,
    start: { file: source.file, line: firstLine, column: 1 },
    data,
    get doc() {
      return fullDocument().doc;
    },
    get lineCounter() {
      return fullDocument().lineCounter;
    },
  };
}
