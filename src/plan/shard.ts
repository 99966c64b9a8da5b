/**
 * `--shard K/N` splits the scopes of a large estate over N CI jobs. A scope's shard is a
 * stable hash of its key, so it never depends on which other scopes exist or on their
 * order: every scope falls in exactly one shard, and the N shards together cover all.
 */
import { createHash } from 'node:crypto';
import { hint, worded } from '../hint.js';
import type { ScopeKey } from '../scope.js';
import { cutText } from '../redact.js';

/** Most shards a run splits into: more jobs than any estate needs, and few enough that every message naming them stays short. */
export const MAX_SHARDS = 256;

/** One shard of N; `index` is 1-based, as typed on the command line. */
export interface Shard {
  index: number;
  total: number;
}

/** A `--shard` value that is not `K/N` with 1 ≤ K ≤ N. */
export class ShardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShardError';
  }
}

/**
 * Parses `K/N`, e.g. `2/4`.
 * @throws ShardError when the text is not two positive integers with K ≤ N ≤ {@link MAX_SHARDS}.
 */
export function parseShard(text: string): Shard {
  const shown = cutText(text, 40);
  const match = /^\s*(\d{1,12})\s*\/\s*(\d{1,12})\s*$/.exec(text);
  if (!match) throw new ShardError(worded`${hint('shard')} "${shown}" is not K/N; expected e.g. ${hint('shard', '1/4')}`);
  const index = Number(match[1]);
  const total = Number(match[2]);
  if (total > MAX_SHARDS) throw new ShardError(worded`${hint('shard')} "${shown}" splits into more than ${MAX_SHARDS} shards; N is at most ${MAX_SHARDS}, e.g. ${hint('shard', `1/${MAX_SHARDS}`)}`);
  if (total < 1 || index < 1 || index > total) {
    throw new ShardError(worded`${hint('shard')} "${shown}" is out of range; K must be between 1 and N, e.g. ${hint('shard', `1/${Math.max(total, 1)}`)}`);
  }
  return { index, total };
}

/** @returns the `K/N` text of a shard, as recorded in the plan. */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.total}`;
}

/** @returns true when the scope belongs to the shard. */
export function inShard(key: ScopeKey, shard: Shard): boolean {
  return shardIndexOf(key, shard.total) === shard.index;
}

/**
 * The one shard filter: the orchestrator applies it before reading live state, and planBuilder
 * applies it again so that it stays correct when called on its own (idempotent).
 * @returns a predicate keeping the items of `shard` (every item when there is no shard)
 */
export function inShardOf(shard: Shard | undefined): (item: { key: ScopeKey }) => boolean {
  return (item) => shard === undefined || inShard(item.key, shard);
}

/** @returns the 1-based shard of N that a scope belongs to. */
export function shardIndexOf(key: ScopeKey, total: number): number {
  const bucket = Number.parseInt(createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 8), 16);
  return (bucket % total) + 1;
}
