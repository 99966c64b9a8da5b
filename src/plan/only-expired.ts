/**
 * `apply --only-expired` (the daily job; docs/ownership-pruning-drift.md, "Expiry is always this repository's change"): dates are enforced on the day,
 * not at the next merge. Of each change only the removal of entries whose `expires` has passed is
 * kept: the other domains, the name and the metadata are written as they are live, and the
 * scope's marker is written back as it was, so the state last applied stays the one it names
 * (evaluated on its own day, that state already lost what expired: applied-state.ts). Whatever
 * else the files want waits for the next full apply, reviewed as usual.
 *
 * A scope it cannot write so is refused by name (design.md, "One verdict"), never skipped (its
 * change stays in the plan, which shows it, and the verdict refuses the run naming it): its
 * componentId read neither live nor from the state last applied; no marker, and HEAD's policy
 * without its expired entries is not what the write leaves (marking it with HEAD would claim a
 * state HEAD does not declare); a marker removed outside this repository. Pure: no I/O.
 */
import { liveMarker, isReservedKey, managedLiveMetadata, stateDigest, writtenStateOf, type WrittenState } from './ownership.js';
import { isPlainObject } from '../plain-object.js';
import { compareScopeKeys, type ScopeKey } from '../scope.js';
import type { LiveScope } from '../service/types.js';
import type { Policy } from '../policy/types.js';
import type { OnlyExpiredReason } from './refusals.js';
import type { Change } from './types.js';

/** A change narrowed to its removals by expiry, or why the scope cannot be. */
export interface Narrowed {
  change: Change | null;
  refused?: OnlyExpiredReason;
}

/**
 * @param live the scope's live state when the change was made
 * @param lastApplied the state last applied (the drift step's base), when known
 * @param head the state HEAD's policy declares (its expired entries left out)
 * @returns the change narrowed to its removals by expiry (null when it has none), and why it is refused, if it is
 */
export function onlyExpired(change: Change | null, live: LiveScope | undefined, lastApplied?: WrittenState, head?: WrittenState): Narrowed {
  if (change === null || change.kind === 'create' || !live?.autojoin) return { change: null };
  const expired = new Set((change.removalReasons ?? []).map((reason) => reason.domain));
  if (expired.size === 0) return { change: null };
  const after = change.before.filter((domain) => !expired.has(domain));
  const narrowed: Change = { ...change, kind: after.length === 0 ? 'clear' : 'update', after, explicitEmpty: after.length === 0 };
  // Stryker disable next-line ArrayDeclaration: a default the filter empties; any entry in it is not the owner's
  const owner = (change.fieldChanges ?? []).filter((field) => field.field === 'owner');
  if (owner.length > 0) narrowed.fieldChanges = owner;
  else delete narrowed.fieldChanges;
  // Every other field as it is live: the name where it can be read (else left out, so the service keeps it), the
  // component the service shows, else the one last applied (a componentId merged but not yet applied waits for its reviewed apply).
  if (live.scopeName !== undefined && live.scopeName !== null) narrowed.scopeName = live.scopeName;
  else delete narrowed.scopeName;
  const component = live.componentId ?? lastApplied?.componentId;
  if (component === undefined) return { change: narrowed, refused: 'component' };
  narrowed.componentId = component;
  if (change.metadata !== undefined) narrowed.metadata = managedLiveMetadata(live, change.metadata);
  const marker = liveMarker(live);
  if (marker && isPlainObject(live.metadata)) {
    narrowed.keepMarker = Object.fromEntries(Object.entries(live.metadata).filter(([key, value]) => isReservedKey(key) && typeof value === 'string')) as Record<string, string>;
    return { change: narrowed };
  }
  // No marker to write back: the write marks the scope with HEAD, which must then declare exactly what it leaves.
  if (head === undefined || stateDigest(head) !== stateDigest(writtenStateOf({ ...narrowed, domains: narrowed.after }))) return { change: narrowed, refused: 'remark' };
  return { change: narrowed };
}

/** The plan builder's --only-expired step: each change narrowed as it is compared or resolved, and the scopes refused by name. */
export interface OnlyExpiredStep {
  narrow(change: Change | null, live: LiveScope | undefined, policy: Policy): Change | null;
  /** A scope the drift step holds until its state last applied is read: narrowed once resolved. */
  hold(live: LiveScope | undefined, policy: Policy): void;
  /** @returns the held scopes' changes, narrowed (a refused one stays in the plan, which shows it; the verdict refuses it) */
  resolveHeld(changes: readonly Change[]): Change[];
  /** @returns the changes the loss tracker held: a marker removed outside is refused */
  resolveLost(changes: readonly Change[]): Change[];
  /** @returns the refused scopes, by key */
  refused(): { key: ScopeKey; reason: OnlyExpiredReason }[];
}

/**
 * @param enabled false: every change as it is (no --only-expired)
 * @param baseOf the state last applied the drift step found for a scope
 */
export function onlyExpiredStep(enabled: boolean, baseOf: (key: ScopeKey) => WrittenState | undefined): OnlyExpiredStep {
  const refused = new Map<ScopeKey, OnlyExpiredReason>();
  const held = new Map<ScopeKey, { live: LiveScope | undefined; policy: Policy }>();
  const narrow = (change: Change | null, live: LiveScope | undefined, policy: Policy | undefined): Change | null => {
    if (!enabled || change === null) return change;
    const result = onlyExpired(change, live, baseOf(change.key), policy && writtenStateOf(policy));
    if (result.refused !== undefined) refused.set(change.key, result.refused);
    return result.change;
  };
  return {
    narrow,
    hold(live, policy) {
      // Stryker disable next-line ConditionalExpression: a memory saving only: disabled, narrow returns each change as it is, whatever was held
      if (enabled) held.set(policy.key, { live, policy });
    },
    resolveHeld: (changes) => changes.flatMap((change) => narrow(change, held.get(change.key)?.live, held.get(change.key)?.policy) ?? []),
    resolveLost(changes) {
      if (enabled) for (const change of changes) if (change.outside?.lost === 'marker') refused.set(change.key, 'marker-removed');
      return [...changes];
    },
    refused: () => [...refused].map(([key, reason]) => ({ key, reason })).sort((a, b) => compareScopeKeys(a.key, b.key)),
  };
}
