import { describe, expect, it } from 'vitest';
import { memoized } from '../src/memo.js';

describe('memoized', () => {
  it('makes each key once, a null or undefined value included, and gives back the same value', () => {
    const made: string[] = [];
    const lookup = memoized((key) => {
      made.push(key);
      return key === 'none' ? null : key === 'gone' ? undefined : { key };
    });
    const first = lookup('a');
    expect(lookup('a')).toBe(first);
    expect(lookup('none')).toBeNull();
    expect(lookup('none')).toBeNull();
    expect(lookup('gone')).toBeUndefined();
    expect(lookup('gone')).toBeUndefined();
    expect(made).toEqual(['a', 'none', 'gone']);
  });
});
