/**
 * Canonical form of policy files, for `fmt` and `import`. fmt edits the YAML document
 * tree in place (reorders keys, rewrites domain scalars) instead of re-serializing plain
 * data, so comments, the `# yaml-language-server: $schema=` line and document markers
 * survive. The result is a fixed point: formatting it again changes nothing.
 */
import { Document, isMap, isScalar, isSeq, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { compareStrings } from '../comparable-domain.js';
import { normalizeDomain } from './domains.js';
import { parseYamlSource } from './parse.js';
import { POLICY_KEYS } from './schema.js';
import type { Diagnostic, Policy, PolicySource } from './types.js';

const STRINGIFY = { lineWidth: 0 } as const;

/**
 * @returns one policy as canonical YAML text (one document, keys in schema order,
 * `domains: []` when empty), optionally headed by a yaml-language-server schema line
 */
export function renderPolicyDocument(policy: Policy, options: { schemaUrl?: string } = {}): string {
  const data: Record<string, unknown> = { scope: policy.scope, scopeType: policy.scopeType };
  if (policy.scopeName !== undefined) data.scopeName = policy.scopeName;
  data.componentId = policy.componentId;
  if (policy.metadata !== undefined) data.metadata = policy.metadata;
  // canonicalizeDocument normalizes, de-duplicates and sorts them, exactly as fmt does.
  data.domains = [...policy.domains];
  const doc = new Document(data);
  if (options.schemaUrl) doc.commentBefore = ` yaml-language-server: $schema=${options.schemaUrl}`;
  canonicalizeDocument(doc);
  return doc.toString(STRINGIFY);
}

export interface FormatResult {
  /** The canonical text; absent when the file could not be parsed. */
  text?: string;
  changed: boolean;
  /** Parse errors that kept the file from being formatted. */
  diagnostics: Diagnostic[];
}

/** Formats one policy file's text; a file with YAML errors is reported, not rewritten. */
export function formatPolicyText(source: PolicySource): FormatResult {
  const parsed = parseYamlSource(source);
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return { changed: false, diagnostics: errors };
  for (const doc of parsed.yamlDocuments) canonicalizeDocument(doc, source.text);
  const text = parsed.yamlDocuments.map(stringifyDocument).join('');
  return { text, changed: text !== source.text, diagnostics: [] };
}

function stringifyDocument(doc: Document): string {
  const contents = doc.contents;
  if (contents && !(isScalar(contents) && contents.value === null)) return doc.toString(STRINGIFY);
  // An empty document (a stray `---`) is dropped; one holding only comments keeps them.
  const comments = [doc.commentBefore, contents?.commentBefore, contents?.comment, doc.comment].filter(Boolean).join('\n');
  if (!comments) return '';
  return `---\n${comments
    .split('\n')
    .map((line) => (line === '' ? '' : `#${line}`))
    .join('\n')}\n`;
}

/**
 * Puts one document in canonical form, in place.
 * @param text the source it was parsed from (tells which comments sit right above the first domain)
 */
function canonicalizeDocument(doc: Document, text?: string): void {
  if (!isMap(doc.contents)) return;
  const map = doc.contents;
  const first = map.items[0];
  map.items.sort((a, b) => keyRank(a) - keyRank(b));
  if (first && map.items[0] !== first) keepHeaderComment(map, first);
  const domains = doc.contents.get('domains', true);
  if (isSeq(domains)) canonicalizeDomains(domains, text);
}

/**
 * A comment above the first key (typically the `# yaml-language-server: $schema=` line)
 * heads the file: when that key moves, the comment stays on top.
 */
function keepHeaderComment(map: YAMLMap, formerFirst: Pair): void {
  if (!isScalar(formerFirst.key) || !formerFirst.key.commentBefore) return;
  map.commentBefore = [map.commentBefore, formerFirst.key.commentBefore].filter(Boolean).join('\n');
  if (formerFirst.key.spaceBefore) map.spaceBefore = true;
  formerFirst.key.commentBefore = undefined;
  formerFirst.key.spaceBefore = false;
}

// Unknown keys sort after the known ones, keeping their order (Array#sort is stable).
function keyRank(pair: Pair): number {
  const rank = isScalar(pair.key) ? POLICY_KEYS.indexOf(String(pair.key.value)) : -1;
  return rank === -1 ? POLICY_KEYS.length : rank;
}

/** Normalizes, sorts and de-duplicates domain scalars; comments travel with their item. */
function canonicalizeDomains(seq: YAMLSeq, text?: string): void {
  if (text !== undefined) labelFirstItem(seq, text);
  const kept = new Map<string, unknown>();
  const others: unknown[] = [];
  for (const item of seq.items) {
    const scalar = domainScalar(item);
    if (!scalar || typeof scalar.value !== 'string') {
      others.push(item);
      continue;
    }
    const domain = normalizeDomain(scalar.value);
    scalar.value = writtenForm(scalar.value, domain);
    scalar.type = 'PLAIN';
    const first = kept.get(domain);
    if (!first) kept.set(domain, item);
    else if (isScalar(first) && isScalar(item) && !first.comment && item.comment) first.comment = item.comment;
  }
  const sorted = [...kept.entries()].sort(([a], [b]) => compareStrings(a, b)).map(([, item]) => item);
  seq.items = [...sorted, ...others];
  seq.flow = seq.items.length === 0;
}

/**
 * An internationalized domain stays as written (lower case, NFC, no final dot), not rewritten
 * to punycode in the source: the file is for people; plans and the service get the ASCII form.
 * @param domain the normalized (ASCII) form, what sorting and de-duplication compare
 */
function writtenForm(raw: string, domain: string): string {
  const lower = raw.trim().normalize('NFC').toLowerCase();
  const shown = /[^.]\.$/.test(lower) ? lower.slice(0, -1) : lower;
  return /[^\p{ASCII}]/u.test(shown) && normalizeDomain(shown) === domain ? shown : domain;
}

/**
 * YAML hangs the comments above the first item on the list itself (with one on the key's line);
 * those on the lines right above the item label it, so they move with the item when sorted.
 */
function labelFirstItem(seq: YAMLSeq, text: string): void {
  const first = seq.items[0];
  if (!seq.commentBefore || !isScalar(first) || !first.range) return;
  const above = text.slice(0, first.range[0]).split('\n').slice(0, -1);
  let count = 0;
  while (/^\s*#/.test(above[above.length - 1 - count] ?? '')) count += 1;
  if (count === 0) return;
  const lines = seq.commentBefore.split('\n');
  first.commentBefore = [lines.slice(-count).join('\n'), first.commentBefore].filter(Boolean).join('\n');
  seq.commentBefore = lines.slice(0, -count).join('\n').replace(/\n+$/, '') || undefined;
}

/** Keys of a time-bound entry, in canonical order. */
const GRANT_KEYS = ['domain', 'expires', 'reason'];

/**
 * @returns the scalar holding an entry's domain: the item itself, or the `domain` of a
 *   time-bound entry `{domain, expires, reason}` (put in block style, keys in canonical order)
 */
function domainScalar(item: unknown): Scalar | null {
  if (isScalar(item)) return item;
  if (!isMap(item)) return null;
  const domain = item.get('domain', true);
  if (!isScalar(domain)) return null;
  const rank = (pair: Pair): number => {
    const index = isScalar(pair.key) ? GRANT_KEYS.indexOf(String(pair.key.value)) : -1;
    return index === -1 ? GRANT_KEYS.length : index;
  };
  item.items.sort((a, b) => rank(a) - rank(b));
  if (item.flow && item.comment && !domain.comment) {
    // `- {domain: a, expires: …}  # why` becomes `- domain: a  # why`: the comment stays on the entry's first line.
    domain.comment = item.comment;
    item.comment = undefined;
  }
  item.flow = false;
  return domain;
}
