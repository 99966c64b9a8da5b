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
 * Diagnostics are located where `yaml` would locate them: the scan records where each key,
 * value and list item starts (the differential test holds these to `yaml`'s positions too), so a
 * warning such as a subdomain's costs no second parse. Only a path the scan did not record makes
 * the document parse its file with `yaml`, on first access to `doc` or `lineCounter`.
 */
import { MAX_FILE_BYTES, parseYamlSource, pathKey, type KeyValuePos, type ParsedDocument, type ParsedSource } from './parse.js';
import type { PolicySource, SourcePos } from './types.js';

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
/**
 * Any file the loader reads (at most MAX_FILE_BYTES) may take this path: the scan is linear, and a
 * wide scope (tens of thousands of domains in one file) is where it saves most. A cap of 64 KiB
 * once sent such a file to `yaml`, at 3× the CPU of the same domains spread over small files.
 */
const MAX_PLAIN_LENGTH = MAX_FILE_BYTES;

/** @returns the file's documents and diagnostics, as {@link parseYamlSource} would give them. */
export function parsePolicyText(source: PolicySource): Pick<ParsedSource, 'documents' | 'diagnostics'> {
  const plain = parsePlainDocument(source);
  return plain ? { documents: [plain], diagnostics: [] } : parseYamlSource(source);
}

/** @returns the file as one document when it lies in the plain subset, else null. */
export function parsePlainDocument(source: PolicySource): ParsedDocument | null {
  const { text } = source;
  if (text.length > MAX_PLAIN_LENGTH || !PLAIN_TEXT.test(text)) return null;
  const read = readLines(text.split('\n'), source.file);
  if (read === null) return null;
  return lazyDocument(source, read);
}

interface PlainRead {
  data: Record<string, unknown>;
  /** 1-based line of the first key: where `yaml` says the document's content starts. */
  firstLine: number;
  /** Where each key, value and list item starts, as `yaml` would locate them. */
  positions: Map<string, KeyValuePos>;
}

/** The line scanner; null as soon as a line falls outside the subset. */
function readLines(lines: readonly string[], file: string): PlainRead | null {
  const data: Record<string, unknown> = {};
  const positions = new Map<string, KeyValuePos>();
  const at = (index: number, column: number): SourcePos => ({ file, line: index + 1, column });
  let firstLine = 0;
  let list: { items: string[]; indent: number } | null = null;
  let open: { key: string; keyPos: SourcePos } | null = null; // a `domains:` line waiting for its items
  for (const [index, line] of lines.entries()) {
    if (COMMENT_OR_BLANK.test(line)) continue;
    const item = ITEM_LINE.exec(line);
    if (item) {
      const indent = (item[1] as string).length;
      const value = item[2] as string;
      if (open !== null) {
        list = { items: [], indent };
        data[open.key] = list.items;
        positions.set(pathKey([open.key]), { key: open.keyPos, value: at(index, indent + 1) });
        open = null;
      }
      const scalar = scalarOf(value);
      if (list?.indent !== indent || scalar === null) return null;
      const itemPos = at(index, line.length - value.length + 1);
      positions.set(pathKey([LIST_KEY, list.items.length]), { key: itemPos, value: itemPos });
      list.items.push(scalar);
      continue;
    }
    const entry = KEY_LINE.exec(line);
    if (!entry || open !== null) return null;
    const key = entry[1] as string;
    if (Object.hasOwn(data, key)) return null;
    const text = entry[2] ?? '';
    const value = valueOf(key, text);
    if (value === null) return null;
    if (firstLine === 0) firstLine = index + 1;
    list = null;
    const keyPos = at(index, 1);
    if (value === OPEN_LIST) {
      open = { key, keyPos };
      continue;
    }
    const valuePos = at(index, line.length - text.length + 1);
    data[key] = value;
    positions.set(pathKey([key]), { key: keyPos, value: valuePos });
    if (Array.isArray(value)) flowItemPositions(value, valuePos, positions);
  }
  return open === null && firstLine !== 0 ? { data, firstLine, positions } : null;
}

/** Items of `[a, b]` start after the bracket, each two characters (`, `) after the one before. */
function flowItemPositions(items: readonly string[], bracket: SourcePos, positions: Map<string, KeyValuePos>): void {
  let column = bracket.column + 1;
  for (const [index, item] of items.entries()) {
    const itemPos = { ...bracket, column };
    positions.set(pathKey([LIST_KEY, index]), { key: itemPos, value: itemPos });
    column += item.length + 2;
  }
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

/**
 * A ParsedDocument whose positions come from the scan; `doc` and `lineCounter` come from the full
 * parse, made on first use (a path the scan did not record, which no check of a plain file asks for).
 */
function lazyDocument(source: PolicySource, read: PlainRead): ParsedDocument {
  let full: ParsedDocument | undefined;
  const fullDocument = (): ParsedDocument => {
    full ??= parseYamlSource(source).documents[0];
    if (!full) throw new Error(`internal error: ${source.file} passed the plain-YAML fast path but not the YAML parser`);
    return full;
  };
  return {
    file: source.file,
    start: { file: source.file, line: read.firstLine, column: 1 },
    data: read.data,
    positions: read.positions,
    get doc() {
      return fullDocument().doc;
    },
    get lineCounter() {
      return fullDocument().lineCounter;
    },
  };
}
