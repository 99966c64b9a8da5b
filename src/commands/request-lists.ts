/**
 * The values of a request the command layer parses once, for both front ends: the lists of scopes
 * it lets through (`--take-ownership` / input take-ownership, `--allow-behind` / input
 * allow-behind), the shard it is narrowed to (`--shard` / input shard). A value that is not
 * TYPE/ID (or a glob of one), or not K/N, is exit 1, naming the flag or input (src/hint.ts).
 */
import { parseAllowBehind } from '../history/behind.js';
import { RunError } from '../output/exit-codes.js';
import type { ScopeGlob } from '../policy/globs.js';
import { parseTakeOwnership } from '../reconcile/ownership-refusal.js';
import { parseShard, type Shard } from '../plan/shard.js';
import type { ScopeKey } from '../scope.js';

/** @throws RunError naming a value that is not TYPE/ID */
export function takeOwnershipRequest(values: readonly string[]): Set<ScopeKey> {
  return asRunError(() => parseTakeOwnership(values));
}

/** @throws RunError naming a value that is not TYPE/ID or a glob of one */
export function allowBehindRequest(values: readonly string[]): ScopeGlob[] {
  return asRunError(() => parseAllowBehind(values));
}

/** @throws RunError naming a value that is not K/N with 1 ≤ K ≤ N */
export function shardRequest(value: string): Shard {
  return asRunError(() => parseShard(value));
}

function asRunError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new RunError((error as Error).message);
  }
}
