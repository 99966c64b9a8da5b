/**
 * Per-key metadata under a marker an older release wrote (docs/ownership-pruning-drift.md, "Ownership"): such a marker
 * carries no `autojoin-sync.keys`, so which live keys this repository wrote is read from the
 * policy at the marker's `autojoin-sync.commit` (the history layer reads them in one batch:
 * src/history/keys-at-commit.ts). Once known, they stand in the live state as if the marker had
 * kept them, and the differ, drift and the write see one answer. Only when that commit or file
 * cannot be read are the keys the policy declares now taken instead, and the plan says so once.
 * Pure: no I/O.
 */
import { liveMarker, MARKER_KEYS, DEFAULT_OWNER, encodeKeys, unmarkedMetadata, type Marker } from './ownership.js';
import type { LiveScope } from '../service/types.js';
import type { Policy } from '../policy/types.js';
import type { Change } from './types.js';
import type { Desired } from './diff.js';
import type { NeededScope } from './three-way.js';
import type { ScopeKey } from '../scope.js';

/** The plan's note when the keys at a marker's commit could not be read for some scopes. */
export function keysUnreadNote(count: number): string {
  const scopes = count === 1 ? '1 scope carries' : `${count} scopes carry`;
  return `${scopes} an ownership marker without \`autojoin-sync.keys\` (written by an older release) whose policy at its \`autojoin-sync.commit\` could not be read: the metadata keys this repository manages there are taken to be the ones the policy declares now, so a key dropped from the file since is kept`;
}

/**
 * @param owner this run's owner: only its markers (or `default`'s, moving to it) were written from here
 * @returns the marker whose keys must be read from its commit before the scope is compared; null
 *   when the marker keeps its keys, is another owner's, or when no live key could be in question
 *   (every live key is one the policy declares now: any answer gives the same write)
 */
export function keysToRead(policy: Policy, live: LiveScope | undefined, owner: string): Marker | null {
  const marker = liveMarker(live);
  if (!marker || marker.keys !== undefined || (marker.owner !== owner && marker.owner !== DEFAULT_OWNER)) return null;
  const declared = policy.metadata ?? {};
  const questioned = Object.keys(unmarkedMetadata(live?.metadata)).some((key) => !Object.hasOwn(declared, key));
  return questioned ? marker : null;
}

/** @returns the live state with its marker's keys set, as a marker of this release would keep them. */
export function withMarkerKeys(live: LiveScope, keys: readonly string[]): LiveScope {
  return { ...live, metadata: { ...(live.metadata as Record<string, unknown>), [MARKER_KEYS.keys]: encodeKeys(keys) } };
}

/**
 * A saved plan made under a marker without keys decided them from git; its change says which:
 * every live key it does not keep was this repository's. Held to the live values by the
 * saved-plan check like any other claim (src/reconcile/saved-plan.ts).
 * @returns the live state with those keys set; `now` itself when its marker keeps its keys
 */
export function withClaimedKeys(now: LiveScope | undefined, change: Change): LiveScope | undefined {
  const marker = liveMarker(now);
  if (!now || !marker || marker.keys !== undefined) return now;
  const kept = change.keptMetadata ?? {};
  return withMarkerKeys(now, Object.keys(unmarkedMetadata(now.metadata)).filter((key) => !Object.hasOwn(kept, key)));
}

/**
 * The builder's step for markers without `autojoin-sync.keys` (marker-keys.ts): such a scope is
 * held until the keys its policy declared at the marker's commit are read, then compared with
 * them in the live state (its fingerprint stays the live state's own).
 */
export function keysStep(owner: string): {
  hold(desired: Desired, live: LiveScope | undefined): boolean;
  needed(): Map<string, NeededScope[]>;
  resolve(keysAt: (commit: string, key: ScopeKey) => readonly string[] | null, compare: (desired: Desired, live: LiveScope | undefined, shown: LiveScope | undefined) => void): void;
  notes(): string[];
} {
  let held: { desired: Desired; live: LiveScope; commit: string }[] = [];
  let unread = 0;
  return {
    hold(desired, live) {
      const marker = live ? keysToRead(desired.policy, live, owner) : null;
      if (!marker || !live) return false;
      if (marker.commit === undefined || !/^[0-9a-f]{40,64}$/.test(marker.commit)) {
        unread += 1;
        return false;
      }
      held.push({ desired, live, commit: marker.commit });
      return true;
    },
    needed() {
      const byCommit = new Map<string, NeededScope[]>();
      for (const { desired, commit } of held) {
        const scope = { key: desired.policy.key, file: desired.policy.source.file };
        const list = byCommit.get(commit);
        if (list) list.push(scope);
        else byCommit.set(commit, [scope]);
      }
      return byCommit;
    },
    resolve(keysAt, compare) {
      const resolving = held;
      held = [];
      for (const { desired, live, commit } of resolving) {
        const keys = keysAt(commit, desired.policy.key);
        if (keys === null) unread += 1;
        compare(desired, keys === null ? live : withMarkerKeys(live, keys), live);
      }
    },
    notes: () => (unread > 0 ? [keysUnreadNote(unread)] : []),
  };
}
