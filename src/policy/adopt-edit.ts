/**
 * `adopt` writes a scope's live state into its policy file as a minimal edit: only the lines of
 * the entries that go and the lines of the entries that come change. Comments, key order, quoting,
 * other YAML documents of the file and the surviving entries (with their `expires` and `reason`)
 * stay byte for byte, so the pull request that adopts a change made outside git shows exactly
 * that change. The text is edited by source ranges rather than re-serialized, because
 * re-serializing a YAML document normalizes quoting and spacing the author chose.
 */
import { isMap, isScalar, isSeq, parse as parseYaml, type Document, type Node, type Pair, type YAMLSeq } from 'yaml';
import { comparableDomain, compareStrings } from '../comparable-domain.js';
import { parseYamlSource } from './parse.js';
import type { PolicySource } from './types.js';

/** What the file must say after the edit: the live state of the fields the file manages. */
export interface AdoptTarget {
  /** The 1-based line where the policy's document starts (Policy.source.line). */
  line: number;
  /** The live domains (any form; compared case-insensitively, Unicode and punycode alike). */
  domains: readonly string[];
  /** The live name; written only when the file manages `scopeName`. */
  scopeName?: string;
}

/** A file that could not be edited; the message says where and why. */
export class AdoptEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdoptEditError';
  }
}

interface Splice {
  start: number;
  end: number;
  text: string;
}

/**
 * @returns the file's text with each target's document brought to its live state
 * @throws AdoptEditError when the file does not parse or a target's document has no `domains` list
 */
export function adoptText(source: PolicySource, targets: readonly AdoptTarget[]): string {
  const parsed = parseYamlSource(source);
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new AdoptEditError(`${source.file}: cannot edit a file with errors (${errors[0]?.message ?? 'invalid YAML'})`);
  const splices = targets.flatMap((target) => documentSplices(source, documentAt(source, parsed.yamlDocuments, target.line), target));
  return applySplices(source.text, splices);
}

function documentAt(source: PolicySource, documents: readonly Document.Parsed[], line: number): Document.Parsed {
  const offset = lineOffset(source.text, line);
  // The first document not yet over by that line: a comment above a document belongs to it.
  const found = documents.find((doc) => isMap(doc.contents) && offset < doc.contents.range[2]);
  if (!found) throw new AdoptEditError(`${source.file}:${line}: no policy document starts here`);
  return found;
}

function documentSplices(source: PolicySource, doc: Document.Parsed, target: AdoptTarget): Splice[] {
  const map = doc.contents;
  if (!isMap(map)) return [];
  const domains = map.items.find((pair) => keyIs(pair, 'domains'));
  if (!domains || !isSeq(domains.value)) throw new AdoptEditError(`${source.file}:${target.line}: the policy has no domains list to edit`);
  const splices = domainSplices(source.text, { key: domains.key, seq: domains.value }, target.domains);
  const name = map.items.find((pair) => keyIs(pair, 'scopeName'));
  if (name && target.scopeName !== undefined && isScalar(name.value) && name.value.value !== target.scopeName) {
    const [start, end] = name.value.range;
    splices.push({ start, end, text: yamlScalar(target.scopeName) });
  }
  return splices;
}

/**
 * Live data is written as data, never structure: a plain scalar only when it is a plain host name
 * that reads back as the same string (in a block or a flow list alike), else a double-quoted one
 * (JSON's string syntax is YAML's double-quoted scalar), so a newline, `#`, `: `, a quote or a
 * `---` inside a live value can never start a comment, a key or a new document.
 * @returns the YAML text of `value` that reads back as exactly `value`
 */
export function yamlScalar(value: string): string {
  if (/^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/.test(value) && readsBackAs(value)) return value;
  return JSON.stringify(value);
}

function readsBackAs(value: string): boolean {
  try {
    const parsed: unknown = parseYaml(`- ${value}\n`);
    return Array.isArray(parsed) && parsed[0] === value;
  } catch {
    return false;
  }
}

function keyIs(pair: Pair, name: string): boolean {
  return isScalar(pair.key) && pair.key.value === name;
}

/** The domain an entry names: a plain string, or the `domain` of an `{domain, expires, reason}` entry. */
function entryDomain(item: unknown): string | undefined {
  if (isScalar(item)) return typeof item.value === 'string' ? item.value : undefined;
  if (isMap(item)) {
    const value = item.get('domain');
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

/** The `domains` key and its list. */
interface DomainsPair {
  key: Node;
  seq: YAMLSeq;
}

function domainSplices(text: string, pair: DomainsPair, live: readonly string[]): Splice[] {
  const { seq } = pair;
  const wanted = new Map(live.map((domain) => [comparableDomain(domain), domain]));
  const kept = seq.items.filter((item) => {
    const domain = entryDomain(item);
    return domain !== undefined && wanted.has(comparableDomain(domain));
  });
  const present = new Set(kept.map((item) => comparableDomain(entryDomain(item) ?? '')));
  const added = [...wanted.entries()].filter(([key]) => !present.has(key)).map(([, domain]) => domain).sort(compareStrings);
  if (seq.flow) return [rewriteWhole(text, pair, kept, added)];
  const removed = seq.items.filter((item) => !kept.includes(item));
  const splices = removed.map((item) => ({ ...wholeLines(text, item as Node), text: '' }));
  const last = kept[kept.length - 1] as Node | undefined;
  if (last === undefined) {
    // Nothing of the block list stays: the value becomes an inline list after the key.
    const at = afterColon(text, pair);
    splices.push({ start: at, end: at, text: ` [${added.map(yamlScalar).join(', ')}]` });
  } else if (added.length > 0) {
    const after = wholeLines(text, last).end;
    const indent = ' '.repeat(columnOf(text, dashBefore(text, (last.range ?? [0])[0])));
    splices.push({ start: after, end: after, text: added.map((domain) => `${indent}- ${yamlScalar(domain)}\n`).join('') });
  }
  return splices;
}

/** A list written inline is written anew, inline: the kept entries as written, then the new ones. */
function rewriteWhole(text: string, pair: DomainsPair, kept: readonly unknown[], added: readonly string[]): Splice {
  const items = [...kept.map((item) => sourceOf(text, item as Node)), ...added.map(yamlScalar)];
  const start = afterColon(text, pair);
  return { start, end: pair.seq.range?.[1] ?? start, text: ` [${items.join(', ')}]` };
}

function afterColon(text: string, pair: DomainsPair): number {
  return text.indexOf(':', pair.key.range?.[1] ?? 0) + 1;
}

function sourceOf(text: string, node: Node): string {
  const [start, end] = node.range ?? [0, 0];
  const raw = text.slice(start, end).trim();
  return isMap(node) && !node.flow ? `{${raw.split('\n').map((line) => line.trim()).join(', ')}}` : raw;
}

/** The lines an entry stands on, from the start of its `- ` line to the end of its last line. */
function wholeLines(text: string, node: Node): { start: number; end: number } {
  const [start, , nodeEnd] = node.range ?? [0, 0, 0];
  const lineStart = text.lastIndexOf('\n', dashBefore(text, start) - 1) + 1;
  const lastChar = Math.max(start, nodeEnd - 1);
  const newline = text.indexOf('\n', lastChar);
  const end = text.charAt(lastChar) === '\n' ? lastChar + 1 : newline === -1 ? text.length : newline + 1;
  return { start: lineStart, end };
}

/** The offset of the `-` that introduces the entry starting at `offset`. */
function dashBefore(text: string, offset: number): number {
  const dash = text.lastIndexOf('-', offset);
  return dash === -1 ? offset : dash;
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

function lineOffset(text: string, line: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return offset;
}

function applySplices(text: string, splices: Splice[]): string {
  let result = text;
  for (const splice of [...splices].sort((a, b) => b.start - a.start)) {
    result = result.slice(0, splice.start) + splice.text + result.slice(splice.end);
  }
  return result;
}
