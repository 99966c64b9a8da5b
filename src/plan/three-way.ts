/**
 * The plan builder's drift step (docs/ownership-pruning-drift.md, "Drift"): it sorts each changed scope that carries this
 * owner's marker into this repository's change, drift or conflict (drift.ts), and applies the
 * scope's `drift` setting: `revert` writes the files' state (today's behaviour, now labelled),
 * `keep` leaves a drifted scope as it is live (reported in `plan.drift`, not written) and, on a
 * conflict, writes this repository's change on top of the live state. A scope whose files
 * changed since its marker is held until the state at the marker's commit is read from git, in
 * one batch per commit for the whole plan (`needed`, then `resolve`).
 */
import { classifyDrift, liveAsWritten, mergedDomains, type DriftVerdict, type LastApplied, type NeededScope } from './drift.js';
import { appliedStateOf } from './applied-state.js';
import { forcedUpdate, withAfter, type Desired } from './diff.js';
import { deactivatedMarker, liveMarker, stateDigest, writtenStateOf, type WrittenState } from './ownership.js';
import type { ScopeKey } from '../scope.js';
import { comparableDomains } from '../comparable-domain.js';
import type { DriftMode, Policy } from '../policy/types.js';
import type { LiveScope } from '../service/types.js';
import type { Change, DriftReport } from './types.js';

export type { LastApplied, NeededScope } from './drift.js';

interface Held {
  desired: Desired;
  live: LiveScope;
  change: Change | null;
  commit: string;
  digest: string;
  applied?: string;
}

export interface ThreeWay {
  /**
   * @param change the two-way change of a scope a file declares (null: files and live agree)
   * @returns the change to record now (null: none), or `held` until {@link ThreeWay.resolve}
   */
  sort(desired: Desired, live: LiveScope | undefined, change: Change | null): Change | null | 'held';
  /** @returns the commits the held scopes need the policy files of, each with its scopes and the files that declare them now. */
  needed(): Map<string, NeededScope[]>;
  /** @returns the changes of the held scopes, now that the states at their commits are known. */
  resolve(lastApplied: LastApplied): Change[];
  /** Scopes changed outside that this plan leaves as they are (`drift: keep`). */
  readonly kept: DriftReport[];
  /** @returns the state last applied of a scope sorted so far (its marker's digest, the files, or git at its commit); undefined when none was found */
  baseOf(key: ScopeKey): WrittenState | undefined;
}

/**
 * @param owner this run's owner: only scopes carrying its marker have a state last applied
 * @param modeOf the scope's `drift` setting (its file's, else the project file's, else revert)
 * @param onHeld told of each scope as it is held, so its state at the commit can be read from git while the rest is still read live
 */
export function threeWay(owner: string, modeOf: (policy: Policy) => DriftMode, onHeld?: (commit: string, scope: NeededScope) => void): ThreeWay {
  const held: Held[] = [];
  const kept: DriftReport[] = [];
  const bases = new Map<ScopeKey, WrittenState>();
  // The state last applied of each scope sorted, as found (the --only-expired step writes a componentId the service does not show from it).
  const place = (desired: Desired, live: LiveScope, change: Change | null, verdict: DriftVerdict): Change | null => {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: a verdict has outside and base exactly when its origin is not 'change' (drift.ts), and a null change (files and live agree) has that verdict
    if (change === null || verdict.origin === 'change' || !verdict.outside || !verdict.base) return change;
    const tagged: Change = { ...change, origin: verdict.origin, outside: verdict.outside };
    if (modeOf(desired.policy) === 'revert') return tagged;
    if (verdict.origin === 'conflict') return withAfter(tagged, mergedDomains(verdict.base, writtenStateOf(desired.policy), live.domains)) ?? keep(tagged);
    return keep(tagged);
  };
  const keep = (change: Change): null => {
    kept.push(driftReport(change));
    return null;
  };
  return {
    sort(desired, live, change) {
      const off = switchedOff(desired, live, change, owner);
      if (off) return modeOf(desired.policy) === 'revert' ? off : keep(off);
      const marker = liveMarker(live);
      if (!live || desired.reason !== 'declared' || marker?.owner !== owner || !marker.digest) return change;
      const state = writtenStateOf(desired.policy);
      const desiredDigest = stateDigest(state);
      // The state last applied: the files' own (unchanged since the write), the files on the day of the write (changed only by
      // entries that expired since), or the live state as the last write left it (nothing changed outside); else git's, below.
      const found = desiredDigest === marker.digest ? state : (appliedStateOf(desired.policy, marker) ?? liveAsWritten(state, live, marker));
      if (found) {
        bases.set(desired.policy.key, found);
        return place(desired, live, change, classifyDrift({ desired: state, live, marker, ...(found === state ? {} : { lastApplied: found }), desiredDigest }));
      }
      if (marker.commit === undefined) return change;
      const entry: Held = { desired, live, change, commit: marker.commit, digest: marker.digest, ...(marker.applied ? { applied: marker.applied } : {}) };
      held.push(entry);
      onHeld?.(entry.commit, neededOf(entry));
      return 'held';
    },
    needed: () => groupByCommit(held),
    resolve: (lastApplied) => held.flatMap((entry) => resolveHeld(entry, lastApplied, place, bases) ?? []),
    kept,
    baseOf: (key) => bases.get(key),
  };
}

function resolveHeld(entry: Held, lastApplied: LastApplied, place: (desired: Desired, live: LiveScope, change: Change | null, verdict: DriftVerdict) => Change | null, bases: Map<ScopeKey, WrittenState>): Change | null {
  const base = lastApplied(entry.commit, entry.desired.policy.key, entry.applied);
  if (base !== null) bases.set(entry.desired.policy.key, base);
  const desired = writtenStateOf(entry.desired.policy);
  // Stryker disable next-line ObjectLiteral,StringLiteral: a scope is held only when the files' digest is not the marker's, so the files changed either way; the owner is not read
  const verdict = classifyDrift({ desired, live: entry.live, marker: { owner: '', digest: entry.digest }, lastApplied: base });
  let change = entry.change;
  // Only where the service does not show the component: where it does, the differ compares it (fields.ts).
  if (change === null && base !== null && entry.live.componentId === undefined && base.componentId !== desired.componentId) {
    change = forcedUpdate(entry.desired, entry.live, [{ field: 'componentId', before: base.componentId, after: desired.componentId }]);
  }
  return place(entry.desired, entry.live, change, verdict);
}

/**
 * An admin's switch-off (autojoin deactivated in the widget) is a change made outside like any
 * other: the deactivated invitation still carries this owner's marker, whose digest is of a state
 * with domains (a clear from here leaves the digest of an empty list). Files unchanged since: a
 * drift; changed too: a conflict, and `drift: keep` leaves it off either way.
 * @returns the create tagged as changed outside, or null when it is not a switch-off
 */
function switchedOff(desired: Desired, live: LiveScope | undefined, change: Change | null, owner: string): Change | null {
  const marker = deactivatedMarker(live);
  // Stryker disable next-line ConditionalExpression: a pruned scope wants no domains, so is never a create
  if (change?.kind !== 'create' || desired.reason !== 'declared' || !live || marker?.owner !== owner || !marker.digest) return null;
  const state = writtenStateOf(desired.policy);
  if (stateDigest({ ...state, domains: [] }) === marker.digest) return null;
  const unchanged = stateDigest(state) === marker.digest;
  const base = unchanged ? state : appliedStateOf(desired.policy, marker);
  const outside = { added: [], removed: comparableDomains(base?.domains ?? desired.domains), fields: [] };
  return { ...change, origin: unchanged ? 'drift' : 'conflict', outside };
}

function groupByCommit(held: readonly Held[]): Map<string, NeededScope[]> {
  const byCommit = new Map<string, NeededScope[]>();
  for (const entry of held) {
    const list = byCommit.get(entry.commit) ?? [];
    list.push(neededOf(entry));
    byCommit.set(entry.commit, list);
  }
  return byCommit;
}

function neededOf(entry: Held): NeededScope {
  const { key, source } = entry.desired.policy;
  return { key, file: source.file, ...(entry.applied ? { applied: entry.applied } : {}) };
}

function driftReport(change: Change): DriftReport {
  // Stryker disable next-line StringLiteral,ObjectLiteral,ArrayDeclaration: a kept change is always tagged (origin and outside set); the fallbacks only satisfy the type
  const report: DriftReport = { key: change.key, origin: change.origin ?? 'drift', live: change.before, outside: change.outside ?? { added: [], removed: [], fields: [] } };
  if (change.scopeName !== undefined) report.scopeName = change.scopeName;
  if (change.source) report.source = change.source;
  return report;
}
