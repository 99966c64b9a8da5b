/** Whole-number flags and action inputs share one parser: digits only, within bounds. */
import { describe, expect, it } from 'vitest';
import { MAX_CONCURRENCY, parseWholeNumber } from '../../src/run/numbers.js';
import { parseInputs } from '../../src/action/inputs.js';

describe('parseWholeNumber', () => {
  it('reads digits within the bounds', () => {
    expect(parseWholeNumber('0', 0)).toBe(0);
    expect(parseWholeNumber(' 16 ', 1, MAX_CONCURRENCY)).toBe(16);
    expect(parseWholeNumber('256', 1, MAX_CONCURRENCY)).toBe(256);
  });

  it.each(['', ' ', '-1', '1.5', '0x10', '1e2', '16abc', 'Infinity'])('refuses %j', (raw) => {
    expect(parseWholeNumber(raw, 0)).toBeNull();
  });

  it('refuses numbers outside the bounds', () => {
    expect(parseWholeNumber('0', 1, MAX_CONCURRENCY)).toBeNull();
    expect(parseWholeNumber('257', 1, MAX_CONCURRENCY)).toBeNull();
  });
});

describe('the action reads numbers as the CLI does', () => {
  const inputs = (values: Record<string, string>) => () => parseInputs((name) => values[name] ?? '');
  it('bounds concurrency like --concurrency and refuses what the CLI refuses', () => {
    expect(inputs({ concurrency: '257' })).toThrow('input concurrency: "257" is not a whole number from 1 to 256');
    expect(inputs({ 'max-removals': '1e2' })).toThrow('input max-removals: "1e2" is not a whole number >= 0');
    expect(inputs({ concurrency: '32', 'max-removals': '0' })()).toMatchObject({ concurrency: 32, maxRemovals: 0 });
  });
});
