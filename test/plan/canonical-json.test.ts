/**
 * canonicalJson writes its text directly (no sorted copy for JSON.stringify to walk); it must give
 * exactly the text of its definition: JSON.stringify of a plain copy whose keys were inserted sorted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/plan/canonical-json.js';

/** The definition (the implementation before it was written directly). */
function byDefinition(value: unknown): string {
  const sortedKeys = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sortedKeys);
    if (typeof item !== 'object' || item === null) return item;
    const entries = Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, inner]) => [key, sortedKeys(inner)]));
  };
  return value === undefined ? 'null' : JSON.stringify(sortedKeys(value));
}

const keys = fc.oneof(fc.string(), fc.constantFrom('0', '1', '9', '10', '01', '-1', '4294967294', '4294967295', 'a', 'B', '__proto__x'));
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, undefined, Number.NaN, Infinity, -0),
    fc.double(),
    fc.integer(),
    fc.string(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(keys, tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('canonicalJson', () => {
  it('gives the text of its definition for any value (integer keys first, in numeric order; undefined left out)', () => {
    fc.assert(fc.property(values, (value) => canonicalJson(value) === byDefinition(value)), { numRuns: 300 });
  });

  it('writes keys sorted at every level, whatever their order', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: undefined, 10: 'x', 9: 'y', z: () => 1 })).toBe('{"9":"y","10":"x","b":[{"c":2,"d":1}]}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson([undefined, () => 1])).toBe('[null,null]');
  });
});
