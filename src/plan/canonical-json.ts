/** One JSON text per value, whatever the order of its object keys: what comparisons and digests hash. */
import { compareStrings } from '../comparable-domain.js';
import { sortInPlace } from '../small-sort.js';

/** @returns JSON text with object keys sorted at every level, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  // JSON.stringify(undefined) gives undefined (lib.d.ts says string): spell it as JSON's null.
  return value === undefined ? 'null' : (write(value) ?? 'null');
}

/**
 * Written directly, without the copy with sorted keys that `JSON.stringify` would then walk (a
 * digest per scope made that copy a measurable part of a plan): the same text as
 * `JSON.stringify` of a plain copy of `value` whose object keys were inserted in sorted order.
 * Such a copy lists integer keys first, in numeric order (the language's own key order), so
 * they come first here too; a property test holds this to that definition.
 * @returns the text, or undefined where `JSON.stringify` leaves the value out (undefined, a function, a symbol)
 */
function write(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item: unknown) => write(item) ?? 'null').join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of orderedKeys(Object.keys(record))) {
    const text = write(record[key]);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

const INDEX = /^(?:0|[1-9]\d*)$/u;
const MAX_INDEX = 2 ** 32 - 2;

function orderedKeys(keys: string[]): string[] {
  const sorted = sortInPlace(keys, compareStrings);
  if (!sorted.some(isIndex)) return sorted;
  return [...sorted.filter(isIndex).sort((a, b) => Number(a) - Number(b)), ...sorted.filter((key) => !isIndex(key))];
}

function isIndex(key: string): boolean {
  return INDEX.test(key) && Number(key) <= MAX_INDEX;
}
