/**
 * The lists of scopes a request lets through, parsed once as the command layer reads them:
 * `--take-ownership` / input take-ownership, `--allow-behind` / input allow-behind. A value that
 * is not TYPE/ID (or a glob of one) is exit 1, naming the flag or input (src/hint.ts).
 */
import { parseAllowBehind } from '../history/behind.js';
import { RunError } from '../output/exit-codes.js';
import type { ScopeGlob } from '../policy/globs.js';
import { parseTakeOwnership } from '../reconcile/ownership-refusal.js';
import type { ScopeKey } from '../scope.js';

/** @throws RunError naming a value that is not TYPE/ID */
export function takeOwnershipRequest(values: readonly string[]): Set<ScopeKey> {
  return asRunError(() => parseTakeOwnership(values));
}

/** @throws RunError naming a value that is not TYPE/ID or a glob of one */
export function allowBehindRequest(values: readonly string[]): ScopeGlob[] {
  return asRunError(() => parseAllowBehind(values));
}

function asRunError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new RunError((error as Error).message);
  }
}
