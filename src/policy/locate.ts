import { isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import { pathKey, positionAt, type ParsedDocument } from './parse.js';
import type { SourcePos } from './types.js';

/** A path into a document's data, as ajv reports it: keys and list indexes. */
export type DataPath = readonly (string | number)[];

/**
 * @returns where the value at `path` sits in the file (or its key, when `part` is 'key').
 * A value that is missing or empty (`scope:`) points at its key; a path that does not
 * exist points at the deepest node that does.
 */
export function locate(parsed: ParsedDocument, path: DataPath, part: 'key' | 'value' = 'value'): SourcePos {
  const seen = parsed.positions?.get(pathKey(path));
  if (seen) return seen[part];
  let node: unknown = parsed.doc.contents;
  let offset = parsed.doc.contents?.range[0] ?? 0;
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    if (isMap(node)) {
      const pair = findPair(node.items, segment);
      if (!pair) break;
      offset = rangeStart(pair.key) ?? offset;
      if (last && part === 'key') break;
      if (!hasContent(pair.value)) break;
      node = pair.value;
      offset = rangeStart(node) ?? offset;
    } else if (isSeq(node) && typeof segment === 'number' && node.items[segment] !== undefined) {
      node = node.items[segment];
      offset = rangeStart(node) ?? offset;
    } else {
      break;
    }
  }
  return positionAt(parsed.file, parsed.lineCounter, offset);
}

function findPair(items: Pair[], segment: string | number): Pair | undefined {
  return items.find((pair) => isScalar(pair.key) && String(pair.key.value) === String(segment));
}

function hasContent(value: unknown): boolean {
  if (!value) return false;
  if (isScalar(value) && value.value === null && value.range && value.range[0] === value.range[1]) return false;
  return true;
}

function rangeStart(node: unknown): number | undefined {
  return (node as Node | null)?.range?.[0];
}
