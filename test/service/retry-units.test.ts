/**
 * Edges of the retry decision (src/service/retry.ts) that test/service/rules.test.ts leaves open:
 * the last wait the budget allows, which 429s retry quickly, and Retry-After values that are not
 * plain delay-seconds.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, parseRetryAfterMs, retryDelayMs } from '../../src/service/retry.js';

const policy = DEFAULT_RETRY_POLICY;

describe('retryDelayMs', () => {
  it('starts a wait that ends exactly at the budget, and none that ends past it', () => {
    // The first backoff with no jitter is 125 ms.
    expect(retryDelayMs({ attempt: 1, status: 503, elapsedMs: policy.maxTotalMs - 125 }, policy, 0)).toBe(125);
    expect(retryDelayMs({ attempt: 1, status: 503, elapsedMs: policy.maxTotalMs - 124 }, policy, 0)).toBeNull();
  });

  it('retries quickly only a bare 429: one with a Retry-After, even 0 or unreadable, backs off as usual', () => {
    expect(retryDelayMs({ attempt: 1, status: 429, elapsedMs: 0 }, policy, 0)).toBe(16);
    expect(retryDelayMs({ attempt: 1, status: 429, retryAfter: '0', elapsedMs: 0 }, policy, 0)).toBe(125);
    expect(retryDelayMs({ attempt: 1, status: 429, retryAfter: 'soon', elapsedMs: 0 }, policy, 0)).toBe(125);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delay-seconds with surrounding spaces', () => {
    expect(parseRetryAfterMs(' 2 ', now)).toBe(2000);
  });

  it('reads a date that starts or ends with digits as a date, not as seconds', () => {
    expect(parseRetryAfterMs('2025-01-01T00:00:05+00:00', now)).toBe(5000);
  });

  it('finds nothing in an empty or blank value', () => {
    expect(parseRetryAfterMs('', now)).toBeUndefined();
    expect(parseRetryAfterMs('   ', now)).toBeUndefined();
  });
});
