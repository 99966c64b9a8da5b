/**
 * src/plan/shard.ts where test/plan/shard.test.ts does not reach: the one shard filter
 * (`inShardOf`), the error's name, and each refusal worded from its first character. Written for
 * its mutation score (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { inShard, inShardOf, parseShard, ShardError } from '../../src/plan/shard.js';
import { useWording } from '../../src/hint.js';
import { cliWording } from '../../src/cli/cli-wording.js';

useWording(cliWording);

/** @returns the error parseShard throws for `text` */
function refusal(text: string): Error {
  try {
    parseShard(text);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`${text} was accepted`);
}

describe('inShardOf', () => {
  const items = Array.from({ length: 40 }, (_, i) => ({ key: `team/scope-${i}` }));

  it('without a shard keeps every item', () => {
    expect(items.filter(inShardOf(undefined))).toEqual(items);
  });

  it('with a shard keeps exactly the items of that shard; the shards of N together keep each item once', () => {
    const kept = [1, 2, 3].map((index) => items.filter(inShardOf({ index, total: 3 })));
    for (const [at, shard] of kept.entries()) {
      expect(shard.length).toBeGreaterThan(0);
      expect(shard.every((item) => inShard(item.key, { index: at + 1, total: 3 }))).toBe(true);
    }
    expect(kept.flat().map((item) => item.key).sort()).toEqual(items.map((item) => item.key).sort());
  });
});

describe('parseShard refusals', () => {
  it('are ShardErrors by name', () => {
    expect(refusal('x')).toBeInstanceOf(ShardError);
    expect(refusal('x').name).toBe('ShardError');
  });

  it('name the flag first, in every refusal', () => {
    expect(refusal('1/257').message).toBe('--shard "1/257" splits into more than 256 shards; N is at most 256, e.g. --shard 1/256');
    expect(refusal('5/4').message).toBe('--shard "5/4" is out of range; K must be between 1 and N, e.g. --shard 1/4');
    expect(refusal('1/0').message).toBe('--shard "1/0" is out of range; K must be between 1 and N, e.g. --shard 1/1');
    expect(refusal('0/0').message).toBe('--shard "0/0" is out of range; K must be between 1 and N, e.g. --shard 1/1');
  });
});
