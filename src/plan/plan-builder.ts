import type { Policy } from '../policy/types.js';
import { compareScopeKeys, type ScopeKey } from '../scope.js';
import { compareScope, replaceScope, declaredDesired, prunedDesired, type Desired } from './diff.js';
import { fingerprint } from './live-fingerprint.js';
import { formatShard, inShardOf, type Shard } from './shard.js';
import { DEFAULT_OWNER, liveMarker, ownershipStatus, readLimits, type Marker } from './ownership.js';
import { movesFrom } from './run-owners.js';
import { lossTracker } from './drift.js';
import { memoized } from '../memo.js';
import type { LiveScope } from '../service/types.js';
import type { DriftMode } from '../policy/types.js';
import { threeWay, type LastApplied, type NeededScope } from './three-way.js';
import { onlyExpiredStep } from './only-expired.js';
import { keysStep } from './marker-keys.js';
import { censusEntry } from './write-checks.js';
import {
  PLAN_FORMAT_VERSION,
  type Change,
  type CensusEntry,
  type ChangeKind,
  type DriftReport,
  type NotManagedHere,
  type Plan,
  type PrunedPolicy,
  type ScopeFingerprint,
} from './types.js';

/**
 * `target` of a plan made against the embedded emulator: renderers say so in the header, and
 * `AUTOJOIN_BASE_URL=embedded` asks for that emulator.
 */
export const EMBEDDED_TARGET = 'embedded';

/** How a {@link PlanBuilder} plans: where, which scopes, as whom. */
export interface PlanBuilderOptions {
  /** Base URL the live state was read from (any user:password part is dropped), or EMBEDDED_TARGET. */
  target: string;
  /** Keep only this shard's scopes (the caller may have filtered already; filtering twice is harmless). */
  shard?: Shard;
  /** `--replace`: scopes written again even when nothing differs. */
  replace?: ReadonlySet<ScopeKey>;
  now?: Date;
  /** The owner this plan's writes mark scopes with (the project file's `owner`; default `default`). */
  owner?: string;
  /** A run of several projects: the owners of its projects, from whose markers a scope moves without a take-over (run-owners.ts). */
  runOwners?: ReadonlySet<string>;
  /** Scopes to take over (--take-ownership): written whatever owner their marker names, cleared by pruning when unmarked. */
  takeOwnership?: ReadonlySet<ScopeKey>;
  /** The project file's `drift` (a policy file's own wins; default revert). */
  drift?: DriftMode;
  /** `apply --only-expired`: each change narrowed to its removals by expiry (only-expired.ts). */
  onlyExpired?: boolean;
  /** Keep the live domains of every scope read (`Plan.census`), for a rule that counts scopes per domain. */
  census?: boolean;
  /**
   * Told of each scope {@link PlanBuilder.lastAppliedNeeded} will name, as soon as it is compared,
   * so the state at its marker's commit can be read from git while live reads go on.
   */
  onLastAppliedNeeded?: (commit: string, scope: NeededScope) => void;
}

/**
 * Destructive changes come first so a reviewer reads them before anything else, and a
 * long plan cut short (a PR comment) still shows them (octoDNS orders deletes first too).
 */
const KIND_RANK: Record<ChangeKind, number> = { clear: 0, update: 1, create: 2 };

/** Sorts changes by kind rank, then scope key: the one order every format and hash uses. */
export function compareChanges(a: Change, b: Change): number {
  return KIND_RANK[a.kind] - KIND_RANK[b.kind] || compareScopeKeys(a.key, b.key);
}

/**
 * Makes a plan one scope at a time, as each scope's live state arrives, keeping only what the
 * plan document holds: the scope's fingerprint and its change, if any. The live state and the
 * policy of an unchanged scope are not kept, so memory stays flat in the number of scopes.
 */
export interface PlanBuilder {
  /** Compares a scope a file declares now with its live state (undefined: no autojoin). A scope outside the shard is left out. */
  add(policy: Policy, live: LiveScope | undefined): void;
  /** The same for a policy no file declares now (pruned): its desired state is no domains. */
  addPruned(policy: PrunedPolicy, live: LiveScope | undefined): void;
  /** @returns the commits whose policy files the plan needs, each with its scopes: those whose files changed since this owner's marker (three-way.ts). */
  lastAppliedNeeded(): Map<string, NeededScope[]>;
  /** @returns the commits of this owner's live markers, each with the scopes that may have lost theirs outside (drift.ts, lossTracker). */
  lostMarkersNeeded(): Map<string, NeededScope[]>;
  /** @returns the commits whose policy files say which metadata keys a marker without `autojoin-sync.keys` managed, each with its scopes (marker-keys.ts). */
  keysNeeded(): Map<string, NeededScope[]>;
  /**
   * Compares the scopes {@link keysNeeded} held, with the keys their policy declared at each
   * marker's commit (null: unknown, the keys declared now stand in, and the plan says so once).
   * Before {@link lastAppliedNeeded}; {@link finish} resolves any scope still held as unknown.
   */
  resolveKeys(keysAt: (commit: string, key: ScopeKey) => readonly string[] | null): void;
  /** @returns the changed scopes whose answer carried no `metadata` while others of the run did: not written without --take-ownership. */
  unknownOwnership(): ScopeKey[];
  /**
   * @param lastApplied the state at a marker's commit of each scope {@link lastAppliedNeeded} named (absent: none is known)
   * @param lostFrom the same for {@link lostMarkersNeeded} (absent: no scope is shown to have lost its marker)
   * @returns the plan of every scope added: changes sorted by compareChanges, scopes by key.
   */
  finish(lastApplied?: LastApplied, lostFrom?: LastApplied): Plan;
  /** The live markers of the scopes changed or held that this owner or `default` wrote from a commit (for history-place.ts), by key. */
  markers(): ReadonlyMap<ScopeKey, Marker>;
}

/**
 * @returns a {@link PlanBuilder}, the one way a plan is made. A pruned scope is cleared only when its live marker names the owner (or --take-ownership
 *   names it); otherwise it is listed in `notManagedHere`, with no change and no fingerprint.
 */
export function planBuilder(options: PlanBuilderOptions): PlanBuilder {
  const keep = inShardOf(options.shard);
  const owner = options.owner ?? DEFAULT_OWNER;
  const replace = options.replace ?? new Set<ScopeKey>();
  const changes: Change[] = [];
  const scopes: ScopeFingerprint[] = [];
  const notManagedHere: NotManagedHere[] = [];
  const markers = new Map<ScopeKey, Marker>();
  const sharedMarker = markerSharer(owner);
  const drift = threeWay(owner, (policy) => policy.drift ?? options.drift ?? 'revert', options.onLastAppliedNeeded);
  const losses = lossTracker(owner);
  const limits = readLimits();
  // --only-expired: each change narrowed to its removals by expiry, a held scope once resolved; the scopes it cannot write refused by name.
  const expiry = onlyExpiredStep(options.onlyExpired === true, (key) => drift.baseOf(key));
  const [census, status] = [options.census ? ([] as CensusEntry[]) : undefined, statusOf(options.shard)];
  const keys = keysStep(owner);
  const compare = (desired: Desired, live: LiveScope | undefined, shown: LiveScope | undefined = live): void => {
    if (census && live?.autojoin) census.push(censusEntry(desired.policy.key, live));
    if (!keep(desired.policy)) return;
    losses.see(live);
    const twoWay = compareScope(desired, live, owner) ?? (replace.has(desired.policy.key) ? replaceScope(desired, live) : null);
    limits.see(desired.policy.key, live, twoWay !== null);
    if (twoWay?.reason === 'pruned' && !ours(twoWay.key, live, owner, options.takeOwnership)) {
      notManagedHere.push(notManaged(twoWay, live));
      return;
    }
    const change = drift.sort(desired, live, twoWay);
    // Placing the plan in history looks only at changed scopes' markers (history-place.ts).
    const marker = change === null ? undefined : liveMarker(live);
    if (marker?.commit !== undefined && (marker.owner === owner || movesFrom(marker.owner, owner, options.runOwners))) markers.set(desired.policy.key, sharedMarker(marker.owner, marker.commit));
    if (change === 'held') expiry.hold(live, desired.policy);
    const narrowed = change === 'held' ? null : expiry.narrow(change, live, desired.policy);
    if (narrowed !== null && !losses.hold(desired, live, narrowed)) changes.push(narrowed);
    scopes.push({ key: desired.policy.key, fingerprint: fingerprint(shown), ...status(live) });
  };
  const add = (desired: Desired, live: LiveScope | undefined): void => {
    if (!keys.hold(desired, live)) compare(desired, live);
  };
  return {
    add: (policy, live) => add(declaredDesired(policy), live),
    addPruned: (policy, live) => add(prunedDesired(policy), live),
    keysNeeded: () => keys.needed(),
    resolveKeys: (keysAt) => keys.resolve(keysAt, compare),
    lastAppliedNeeded: () => drift.needed(),
    lostMarkersNeeded: () => losses.needed(),
    unknownOwnership: () => limits.unknownOwnership(),
    markers: () => markers,
    finish: (lastApplied = () => null, lostFrom = () => null) => {
      keys.resolve(() => null, compare);
      changes.push(...expiry.resolveHeld(drift.resolve(lastApplied)), ...expiry.resolveLost(losses.resolve(lostFrom)));
      notManagedHere.sort((a, b) => compareScopeKeys(a.key, b.key));
      drift.kept.sort((a, b) => compareScopeKeys(a.key, b.key));
      const plan = planOf(changes.sort(compareChanges), sortedScopes(scopes), { ...options, owner, notManagedHere, kept: drift.kept, notes: [...limits.notes(), ...keys.notes()] });
      if (census) plan.census = census.sort((a, b) => compareScopeKeys(a.key, b.key));
      if (expiry.refused().length > 0) plan.onlyExpiredRefused = expiry.refused();
      return plan;
    },
  };
}

/** A shard part records what each answer showed of its owner: merge-plans decides unknown ownership over the whole. */
function statusOf(shard: Shard | undefined): (live: LiveScope | undefined) => Pick<ScopeFingerprint, 'ownership'> {
  return shard === undefined ? () => ({}) : (live) => ({ ownership: ownershipStatus(live) });
}

/**
 * @returns the one marker object of a commit, for this owner's markers and `default`'s (the only
 *   ones the plan keeps): an apply marks thousands of scopes with the same commit, and each answer
 *   is parsed into a copy of its own
 */
function markerSharer(owner: string): (who: string, commit: string) => Marker {
  const ours = memoized((commit): Marker => ({ owner, commit }));
  const byDefault = memoized((commit): Marker => ({ owner: DEFAULT_OWNER, commit }));
  // Another project's owner of this run (a move between projects: ownership.ts) is rare: a marker of its own.
  return (who, commit) => (who === owner ? ours(commit) : who === DEFAULT_OWNER ? byDefault(commit) : { owner: who, commit });
}

/** A pruning candidate is ours to clear when its live marker names the owner, or the run takes it over. */
function ours(key: ScopeKey, live: LiveScope | undefined, owner: string, takeOwnership: ReadonlySet<ScopeKey> | undefined): boolean {
  return liveMarker(live)?.owner === owner || takeOwnership?.has(key) === true;
}

function notManaged(change: Change, live: LiveScope | undefined): NotManagedHere {
  const entry: NotManagedHere = { key: change.key, owner: liveMarker(live)?.owner ?? null };
  if (change.removedBy) entry.removedBy = change.removedBy;
  return entry;
}

function planOf(
  changes: Change[],
  scopes: ScopeFingerprint[],
  options: PlanBuilderOptions & { owner: string; notManagedHere: NotManagedHere[]; kept: DriftReport[]; notes: string[] },
): Plan {
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: (options.now ?? new Date()).toISOString(),
    target: withoutCredentials(options.target),
    owner: options.owner,
    changes,
    scopes,
    notManagedHere: options.notManagedHere,
    drift: options.kept,
  };
  // A plan of no run (a program embedding the builder): no project file, no limits; makePlan records the run's context over it.
  plan.context = { projectFile: null, limits: {}, rules: [], today: plan.createdAt.slice(0, 10), head: null, takeOwnership: [] };
  if (options.shard) plan.shard = formatShard(options.shard);
  if (options.notes.length > 0) plan.notes = options.notes;
  return plan;
}

/** Sorts by key; a scope added twice is a caller's bug (the loader lets no duplicate through). */
function sortedScopes(scopes: ScopeFingerprint[]): ScopeFingerprint[] {
  scopes.sort((a, b) => compareScopeKeys(a.key, b.key));
  const twice = scopes.find((scope, index) => index > 0 && scope.key === scopes[index - 1]?.key);
  if (twice) throw new Error(`scope ${twice.key} was planned twice`);
  return scopes;
}

/** The plan records where it was made; a URL with user:password must not carry them into it. */
function withoutCredentials(target: string): string {
  try {
    const url = new URL(target);
    if (!url.username && !url.password) return target;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return target;
  }
}
