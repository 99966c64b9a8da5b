/**
 * parseJsonBody leaves out the depth walk when the text has too few brackets to nest that deep:
 * its answers must stay exactly those of the walk on every body, around the limit and beyond.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonBody } from '../../src/service/json-body.js';

/** The definition: the depth of the parsed value (objects and arrays), compared with the limit. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** A value nested exactly `depth` deep, its containers objects or arrays, with brackets in strings around it. */
const nested = fc
  .record({ depth: fc.integer({ min: 1, max: MAX_JSON_DEPTH + 3 }), kinds: fc.array(fc.boolean(), { minLength: MAX_JSON_DEPTH + 3, maxLength: MAX_JSON_DEPTH + 3 }), noise: fc.nat({ max: 80 }) })
  .map(({ depth, kinds, noise }) => {
    let value: unknown = '[{'.repeat(noise);
    for (let level = 0; level < depth; level++) value = kinds[level] ? [value, 'x{'] : { inner: value, '[': 1 };
    return value;
  });

describe('parseJsonBody', () => {
  it('refuses a body nested deeper than the limit, and only such a body, whatever brackets its strings hold', () => {
    fc.assert(
      fc.property(fc.oneof(nested, fc.jsonValue({ maxDepth: 6 })), (value) => {
        const result = parseJsonBody(Buffer.from(JSON.stringify(value)), 'application/json');
        if (depthOf(value) > MAX_JSON_DEPTH) expect(result).toEqual({ ok: false, problem: `the JSON is nested deeper than ${MAX_JSON_DEPTH} levels` });
        else expect(result).toEqual({ ok: true, value: JSON.parse(JSON.stringify(value)) as unknown });
      }),
      { numRuns: 300 },
    );
  });

  it('draws the line at exactly the limit, with no bracket to spare', () => {
    for (const open of ['[', '{"a":']) {
      const close = open === '[' ? ']' : '}';
      const at = (depth: number): string => `${open.repeat(depth)}1${close.repeat(depth)}`;
      expect(parseJsonBody(Buffer.from(at(MAX_JSON_DEPTH)), undefined).ok).toBe(true);
      expect(parseJsonBody(Buffer.from(at(MAX_JSON_DEPTH + 1)), undefined)).toEqual({ ok: false, problem: `the JSON is nested deeper than ${MAX_JSON_DEPTH} levels` });
    }
  });

  it('takes a body of white space alone as empty, as trimming would', () => {
    for (const blank of ['', ' ', '\t\r\n', '\u00a0\ufeff\u2028']) expect(parseJsonBody(Buffer.from(blank), undefined)).toEqual({ ok: false, problem: 'the body is empty' });
    expect(parseJsonBody(Buffer.from(' 1 '), undefined)).toEqual({ ok: true, value: 1 });
  });
});
