/**
 * `--scope TYPE/ID` and `--exclude-scope TYPE/ID` narrow a run to some scopes, as Terraform's
 * `-target` does. A target names a scope exactly (its key); one that matches no scope the policy
 * files declare (or that pruning found) is an error, so a typo never plans "No changes".
 */
import { hint, worded, type Setting } from '../hint.js';
import { parseScopeKey, scopeKey, type ScopeKey } from '../scope.js';

/** The scopes a run is narrowed to: `include` (all when empty), minus `exclude`. */
export interface ScopeTargets {
  include: ReadonlySet<ScopeKey>;
  exclude: ReadonlySet<ScopeKey>;
}

/** A `--scope`/`--exclude-scope` value that is not `TYPE/ID`, or a target no policy declares. */
export class ScopeTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScopeTargetError';
  }
}

/**
 * Parses the flag values (`team/eng-api`).
 * @returns undefined when neither flag was given (every scope is in)
 * @throws ScopeTargetError naming the flag and the value that is not `TYPE/ID`
 */
export function parseTargets(include: readonly string[] = [], exclude: readonly string[] = []): ScopeTargets | undefined {
  if (include.length === 0 && exclude.length === 0) return undefined;
  return { include: new Set(include.map((key) => keyOf('scope', key))), exclude: new Set(exclude.map((key) => keyOf('excludeScope', key))) };
}

function keyOf(setting: Setting, text: string): ScopeKey {
  try {
    return scopeKey(parseScopeKey(text));
  } catch (error) {
    throw new ScopeTargetError(worded`${hint(setting)}: ${(error as Error).message}`);
  }
}

/** Parses `--replace` values (`team/eng-api`) into scope keys. */
export function parseReplace(values: readonly string[] = []): Set<ScopeKey> {
  return new Set(values.map((key) => keyOf('replace', key)));
}

/** @returns a predicate keeping the items the targets name (every item when there are none). */
export function inTargetsOf(targets: ScopeTargets | undefined): (item: { key: ScopeKey }) => boolean {
  if (targets === undefined) return () => true;
  return ({ key }) => (targets.include.size === 0 || targets.include.has(key)) && !targets.exclude.has(key);
}

/**
 * @param declared every scope key the run saw (declared by a file, or found by pruning)
 * @throws ScopeTargetError listing the targets that match none of them
 */
export function checkTargetsMatched(targets: ScopeTargets | undefined, declared: Pick<ReadonlySet<ScopeKey>, 'has'>): void {
  if (targets === undefined) return;
  const unmatched = [...targets.include, ...targets.exclude].filter((key) => !declared.has(key));
  if (unmatched.length === 0) return;
  throw new ScopeTargetError(
    `${unmatched.join(', ')} ${unmatched.length === 1 ? 'matches' : 'match'} no scope the policy files declare; ` +
      'check the spelling (TYPE/ID, e.g. team/eng-api) and the paths; nothing was planned',
  );
}
