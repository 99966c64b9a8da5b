/**
 * Drift with three sides (docs/ownership-pruning-drift.md, "Drift"). A scope this repository wrote carries its marker,
 * whose digest is that of the state last applied. Against it:
 *  - the files changed when the digest of what they declare now differs from the marker's;
 *  - the live state changed when what the service shows differs from the state last applied.
 * Neither needs git while the files are unchanged: then the files ARE the state last applied (the
 * digests match). Only a scope that changed on both sides needs that state itself, read from git
 * at the marker's commit; when that commit is gone, such a scope is this repository's change.
 * Pure: no I/O.
 */
import { comparableDomains } from '../comparable-domain.js';
import { deactivatedMarker, liveMarker, markerOf, pickMetadata, stateDigest, writtenStateOf, type Marker, type WrittenState } from './ownership.js';
import { canonicalJson } from './fields.js';
import type { LiveScope } from '../service/types.js';
import type { Change, OutsideChange } from './types.js';
import type { Desired } from './diff.js';
import type { ScopeKey } from '../scope.js';


/** A scope whose state at a commit is needed, and the file that declares it now (most likely where it was then too). */
export interface NeededScope {
  key: ScopeKey;
  file: string;
  /** The day the marker says it was applied (expiry is evaluated then); absent: the commit's date. */
  applied?: string;
}

/**
 * The state at a marker's commit of one scope, its expiry evaluated on `applied` (absent: the
 * commit's date): null when that commit, or the scope in it, is gone.
 */
export type LastApplied = (commit: string, key: ScopeKey, applied?: string) => WrittenState | null;

/**
 * Which side changed a scope:
 *  - change:   the files differ from the state last applied (this repository's change);
 *  - drift:    the live state differs from it and the files do not (changed outside this repository);
 *  - conflict: both.
 */
export type Origin = 'change' | 'drift' | 'conflict';

/** The three sides of one scope, as `classifyDrift` takes them. */
export interface DriftSides {
  /** What the files declare now. */
  desired: WrittenState;
  live: LiveScope;
  /** The live marker; it names this repository's owner (the caller checked). */
  marker: Marker;
  /** The state at the marker's commit, read from git; null when that commit or file is gone. */
  lastApplied?: WrittenState | null;
  /** {@link stateDigest} of `desired`, when the caller has computed it already (one digest a scope, not two). */
  desiredDigest?: string;
}

export interface DriftVerdict {
  origin: Origin;
  /** drift and conflict: what changed outside, measured from the state last applied. */
  outside?: OutsideChange;
  /** The state the outside change is measured from: the files' when unchanged, else git's. */
  base?: WrittenState;
}

/**
 * The live state in the shape of `base`: the fields `base` manages, read from the service. Where
 * the service does not show the component (`componentId` / `widgetId`), `base`'s stands in for it.
 */
export function liveStateLike(base: WrittenState, live: LiveScope): WrittenState {
  const state: WrittenState = { scopeType: base.scopeType, scope: base.scope, componentId: live.componentId ?? base.componentId, domains: live.domains };
  if (base.scopeName !== undefined) state.scopeName = live.scopeName ?? undefined;
  // Per key: only the keys `base` manages; another writer's keys are not this repository's state.
  if (base.metadata !== undefined) state.metadata = pickMetadata(live.metadata, Object.keys(base.metadata));
  return state;
}

/**
 * The live state, when it is exactly the state last written: the one shape of it (with or without
 * the name, with or without the metadata of the marker's keys; the component the service shows,
 * else the files') whose digest is the marker's. Then that write is the base, and git need not be
 * asked for it: nothing changed outside since (the usual case of a scope whose files changed).
 * @param desired the state the files declare now (its scope and, where the service does not show it, its component)
 * @returns the state last written, or null when the live state is not it (or cannot be shown to be)
 */
export function liveAsWritten(desired: WrittenState, live: LiveScope, marker: Marker): WrittenState | null {
  if (!marker.digest || !live.autojoin) return null;
  const plain: WrittenState = { scopeType: desired.scopeType, scope: desired.scope, componentId: live.componentId ?? desired.componentId, domains: live.domains };
  // A field left undefined is left out of the state (writtenStateOf): the shape without it.
  const names = new Set([undefined, live.scopeName ?? undefined]);
  const metadata = marker.keys === undefined ? [undefined] : [undefined, pickMetadata(live.metadata, marker.keys)];
  for (const scopeName of names) {
    for (const managed of metadata) {
      const state = writtenStateOf({ ...plain, scopeName, metadata: managed });
      if (stateDigest(state) === marker.digest) return state;
    }
  }
  return null;
}

/**
 * Each domain and field where the files and the live state differ is put down to the side that
 * moved it away from the state last applied (`base`): the one of the two that no longer equals it.
 * Attributing item by item (rather than comparing whole states) keeps an adopted change from
 * counting as this repository's: after `adopt`, only what moved outside since is drift.
 * @returns which side changed the scope, and what changed outside (drift, conflict); `change`
 *   when the last applied state is needed and unknown (its commit is gone)
 */
export function classifyDrift(sides: DriftSides): DriftVerdict {
  const filesChanged = (sides.desiredDigest ?? stateDigest(sides.desired)) !== sides.marker.digest;
  const base = filesChanged ? sides.lastApplied ?? null : sides.desired;
  if (base === null) return { origin: 'change' };
  const { outside, repository } = attribute(sides.desired, liveStateLike(sides.desired, sides.live), base);
  if (outside.added.length + outside.removed.length + outside.fields.length === 0) return { origin: 'change' };
  if (sides.live.autojoin?.modifiedAt) outside.modifiedAt = sides.live.autojoin.modifiedAt;
  return { origin: repository > 0 ? 'conflict' : 'drift', outside, base };
}

function attribute(desired: WrittenState, live: WrittenState, base: WrittenState): { outside: OutsideChange; repository: number } {
  const files = new Set(comparableDomains(desired.domains));
  const now = new Set(comparableDomains(live.domains));
  const was = new Set(comparableDomains(base.domains));
  const outside: OutsideChange = { added: [], removed: [], fields: [] };
  let repository = 0;
  if (live.componentId !== desired.componentId) {
    if (base.componentId === desired.componentId) outside.fields.push({ field: 'componentId', before: base.componentId, after: live.componentId });
    else repository += 1;
  } else if (base.componentId !== desired.componentId) repository += 1;
  for (const domain of comparableDomains([...files, ...now])) {
    if (files.has(domain) === now.has(domain)) continue;
    if (now.has(domain) === was.has(domain)) repository += 1;
    else (now.has(domain) ? outside.added : outside.removed).push(domain);
  }
  // A field the files do not manage is absent from both (liveStateLike): equal, skipped.
  for (const field of ['scopeName', 'metadata'] as const) {
    const mine = canonicalJson(desired[field]);
    if (mine === canonicalJson(live[field])) continue;
    // canonicalJson(undefined) is 'null', which no managed name or metadata is: a field the base lacks is the files' change.
    if (mine === canonicalJson(base[field])) outside.fields.push({ field, before: base[field], after: live[field] ?? null });
    else repository += 1;
  }
  return { outside, repository };
}

/**
 * `drift: keep` on a conflict: this repository's change applied on top of the live state, so the
 * change made outside stays. Domains: live + (added by the files) − (removed by the files).
 * @returns the domain list to write
 */
export function mergedDomains(base: WrittenState, desired: WrittenState, live: readonly string[]): string[] {
  const was = new Set(comparableDomains(base.domains));
  const now = new Set(comparableDomains(desired.domains));
  const merged = new Set(comparableDomains(live));
  for (const domain of now) if (!was.has(domain)) merged.add(domain);
  for (const domain of was) if (!now.has(domain)) merged.delete(domain);
  return comparableDomains([...merged]);
}

/**
 * What a scope lost outside this repository (docs/ownership-pruning-drift.md, "Ownership", release 4): its `marker` (the
 * answer shows metadata, but not this tool's keys: another writer replaced it) or its autojoin
 * `invitation` (revoked, deleted by scope, or switched off by a write that left no marker).
 */
export type Lost = NonNullable<OutsideChange['lost']>;

/** A declared scope that may have lost its marker (or invitation) outside: its sides, its change and what it lost. */
export interface LossSuspect {
  desired: Desired;
  live: LiveScope;
  change: Change;
  lost: Lost;
}

/**
 * @returns the suspect, for a declared scope with domains whose change would mark it as if it
 *   were new: an active invitation showing metadata without a marker, or no active invitation
 *   and no marker left; null otherwise (among others: metadata not shown)
 */
export function lossSuspect(desired: Desired, live: LiveScope | undefined, change: Change | null): LossSuspect | null {
  if (change === null || change.origin !== undefined || desired.reason !== 'declared' || desired.domains.length === 0 || live === undefined) return null;
  const lost = lostOf(live);
  return lost === null ? null : { desired, live, change, lost };
}

function lostOf(live: LiveScope): Lost | null {
  if (live.autojoin) return live.metadata !== undefined && markerOf(live.metadata) === null ? 'marker' : null;
  return markerOf(live.deactivatedMetadata) === null ? 'invitation' : null;
}

/** How many of this owner's marker commits a plan reads for its suspects (the most common first): one git batch each. */
const MAX_LOSS_COMMITS = 8;

/** The plan builder's step for scopes that lost their marker (or invitation) to another writer. */
export interface LossTracker {
  /** Notes the marker of every scope read: this owner's live markers and their commits. */
  see(live: LiveScope | undefined): void;
  /** @returns true when the change is held as a suspect until {@link LossTracker.resolve}. */
  hold(desired: Desired, live: LiveScope | undefined, change: Change | null): boolean;
  /** @returns the commits of this owner's live markers to read the suspects from (none when there is no suspect or no marker). */
  needed(): Map<string, NeededScope[]>;
  /**
   * A suspect declared in the policy files at one of those commits was written by an apply from
   * here (that commit is its own ancestor, and an apply writes every scope it declares): it lost
   * its marker outside, and its change is tagged as drift measured from the state at that commit.
   * @returns every held change, tagged or as it was
   */
  resolve(lastApplied: LastApplied): Change[];
}

/** @param owner this run's owner: only its markers say what an apply from here wrote */
export function lossTracker(owner: string): LossTracker {
  const commits = new Map<string, number>();
  const held: LossSuspect[] = [];
  const chosen = (): string[] => [...commits.entries()].sort((a, b) => b[1] - a[1]).slice(0, MAX_LOSS_COMMITS).map(([commit]) => commit);
  return {
    see(live) {
      const marker = liveMarker(live) ?? deactivatedMarker(live);
      if (marker?.owner === owner && marker.commit !== undefined) commits.set(marker.commit, (commits.get(marker.commit) ?? 0) + 1);
    },
    hold(desired, live, change) {
      const suspect = lossSuspect(desired, live, change);
      if (suspect === null) return false;
      held.push(suspect);
      return true;
    },
    needed() {
      if (held.length === 0) return new Map();
      const scopes = held.map(({ desired }) => ({ key: desired.policy.key, file: desired.policy.source.file }));
      return new Map(chosen().map((commit) => [commit, scopes]));
    },
    resolve(lastApplied) {
      const from = chosen();
      return held.map(({ desired, live, change, lost }) => {
        const base = from.map((commit) => lastApplied(commit, desired.policy.key)).find((state) => state !== null) ?? null;
        return base === null ? change : lostChange(change, desired, live, base, lost);
      });
    },
  };
}

/** @returns the change tagged as drift (conflict when the files moved too), its outside change measured from `base`. */
function lostChange(change: Change, desired: Desired, live: LiveScope, base: WrittenState, lost: Lost): Change {
  const verdict = classifyDrift({
    desired: writtenStateOf(desired.policy),
    live,
    // Stryker disable next-line ObjectLiteral,StringLiteral: classifyDrift reads only a marker's digest; without one it measures from `base`
    marker: { owner: '' },
    lastApplied: base,
  });
  const outside: OutsideChange = { ...(verdict.outside ?? { added: [], removed: [], fields: [] }), lost };
  if (live.autojoin?.modifiedAt) outside.modifiedAt = live.autojoin.modifiedAt;
  return { ...change, origin: verdict.origin === 'conflict' ? 'conflict' : 'drift', outside };
}
