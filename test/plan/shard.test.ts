import { describe, expect, it } from 'vitest';
import { formatShard, inShard, parseShard, ShardError, shardIndexOf } from '../../src/plan/shard.js';
import { useWording } from '../../src/hint.js';
import { cliWording } from '../../src/cli/cli-wording.js';

// The messages asserted here are worded as the CLI words them (src/hint.ts).
useWording(cliWording);

describe('parseShard', () => {
  it('reads K/N', () => {
    expect(parseShard('1/1')).toEqual({ index: 1, total: 1 });
    expect(parseShard('3/4')).toEqual({ index: 3, total: 4 });
    expect(formatShard(parseShard(' 2 / 8 '))).toBe('2/8');
    expect(parseShard('256/256')).toEqual({ index: 256, total: 256 });
  });

  it('reads K and N of two digits or more (a CI matrix of 16 or 100 jobs)', () => {
    expect(parseShard('3/16')).toEqual({ index: 3, total: 16 });
    expect(parseShard('12/16')).toEqual({ index: 12, total: 16 });
    expect(parseShard('100/100')).toEqual({ index: 100, total: 100 });
  });

  it.each([
    ['0/3', /out of range; K must be between 1 and N, e.g. --shard 1\/3/],
    ['4/3', /out of range/],
    ['1/0', /out of range/],
    ['a/3', /is not K\/N; expected e.g. --shard 1\/4/],
    ['3', /is not K\/N/],
    ['-1/3', /is not K\/N/],
    ['1.5/3', /is not K\/N/],
    ['', /is not K\/N/],
    ['1/257', /splits into more than 256 shards; N is at most 256, e.g. --shard 1\/256/],
    ['1/2000000', /more than 256 shards/],
    ['1/4294967297', /more than 256 shards/],
    [`1/${'9'.repeat(400)}`, /^--shard "1\/9{37}…" is not K\/N/],
  ])('refuses %j', (text, message) => {
    expect(() => parseShard(text)).toThrow(ShardError);
    expect(() => parseShard(text)).toThrow(message);
  });
});

describe('inShard', () => {
  const keys = Array.from({ length: 1000 }, (_, i) => `team/scope-${i}`);

  it('puts every key in exactly one shard, so shards are disjoint and their union is everything', () => {
    for (const total of [1, 2, 3, 7]) {
      const shards = Array.from({ length: total }, (_, i) => ({ index: i + 1, total }));
      for (const key of keys) expect(shards.filter((shard) => inShard(key, shard))).toHaveLength(1);
    }
  });

  it('spreads keys roughly evenly', () => {
    const counts = [1, 2, 3, 4].map((index) => keys.filter((key) => inShard(key, { index, total: 4 })).length);
    for (const count of counts) expect(count).toBeGreaterThan(180);
  });

  it('is stable across runs and releases (pinned: sha256("team/a") starts 65f838a2, mod 5 is 2)', () => {
    expect(shardIndexOf('team/a', 5)).toBe(3);
    expect(inShard('team/a', { index: 3, total: 5 })).toBe(true);
  });
});
