/**
 * The comparison form of domains has a fast path (a list already in that form is only copied) and
 * sorts short lists by insertion (src/small-sort.ts): both must give exactly what the definition
 * gives, for any input, including lists that look sorted but are not in comparison form.
 */
import fc from 'fast-check';
import { domainToASCII } from 'node:url';
import { describe, expect, it } from 'vitest';
import { comparableDomain, comparableDomains, compareStrings } from '../src/comparable-domain.js';
import { sortInPlace } from '../src/small-sort.js';

/** The definition: trimmed, lower case, no trailing dot, punycode (ASCII as it is); unique, sorted. */
function oneByDefinition(raw: string): string {
  const lower = raw.trim().toLowerCase().replace(/\.+$/u, '');
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/u.test(lower) ? lower : domainToASCII(lower) || lower;
}
function listByDefinition(raw: readonly string[]): string[] {
  return [...new Set(raw.map(oneByDefinition).filter((domain) => domain !== ''))].sort(compareStrings);
}

const characters = fc.constantFrom(...'abcxyz019-._*@ ABZ\t\n\u00a0\u00e9\u00c9\u0430\u{1f600}.'.split(''), '\u00e9');
const rawDomain = fc.oneof(
  fc.string({ unit: characters, maxLength: 12 }),
  fc.constantFrom('example.com', 'Example.com', 'example.com.', ' example.com', 'b\u00fccher.de', 'xn--bcher-kva.de', '', '.', 'a..', '0x7f.1'),
);
/** Sorted by code unit, as a list in comparison form is, whatever is in it (duplicates too). */
const sortedList = fc
  .array(fc.oneof(rawDomain, fc.constantFrom('a.example', 'b.example', 'B.example', 'b.example.')), { maxLength: 8 })
  .map((list) => list.sort(compareStrings));

describe('comparableDomains', () => {
  it('gives the list of its definition for any list, sorted-looking or not', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(rawDomain, { maxLength: 8 }), sortedList), (raw) => {
        expect(comparableDomains(raw)).toEqual(listByDefinition(raw));
        expect(raw.map(comparableDomain)).toEqual(raw.map(oneByDefinition));
      }),
      { numRuns: 400 },
    );
  });

  it('takes a list already in comparison form as it is, and copies it', () => {
    const list = ['a.example', 'b.example'];
    const compared = comparableDomains(list);
    expect(compared).toEqual(list);
    expect(compared).not.toBe(list);
    // Sorted by code unit but not in comparison form: upper case, a trailing dot, a space, a duplicate after normalizing.
    expect(comparableDomains(['A.example', 'a.example'])).toEqual(['a.example']);
    expect(comparableDomains(['a.example', 'a.example'])).toEqual(['a.example']);
    expect(comparableDomains(['a.example', 'b.example.'])).toEqual(['a.example', 'b.example']);
    expect(comparableDomains([' b.example', 'a.example'])).toEqual(['a.example', 'b.example']);
  });
});

describe('sortInPlace', () => {
  it('sorts as Array.prototype.sort does, stable, short and long arrays alike', () => {
    const item = fc.record({ key: fc.integer({ min: 0, max: 5 }), at: fc.nat() });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), (items) => {
        const byKey = (a: { key: number }, b: { key: number }): number => a.key - b.key;
        const expected = [...items].sort(byKey);
        const copy = [...items];
        expect(sortInPlace(copy, byKey)).toBe(copy);
        expect(copy).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
