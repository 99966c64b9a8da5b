/**
 * `apply --only-expired` (the daily job; docs/ownership-pruning-drift.md, "Expiry is always this repository's change"): dates are enforced on the day,
 * not at the next merge. Of each change only the removal of entries whose `expires` has passed is
 * kept: the other domains, the name and the metadata are written as they are live, and the
 * scope's marker is written back as it was, so the state last applied stays the one it names
 * (evaluated on its own day, that state already lost what expired: applied-state.ts). Whatever
 * else the files want waits for the next full apply, reviewed as usual. Pure: no I/O.
 */
import { liveMarker, isReservedKey, managedLiveMetadata } from './ownership.js';
import { isPlainObject } from '../plain-object.js';
import type { LiveScope } from '../service/types.js';
import type { Change } from './types.js';

/**
 * @param live the scope's live state when the change was made
 * @returns the change narrowed to its removals by expiry; null when it has none
 */
export function onlyExpired(change: Change | null, live: LiveScope | undefined): Change | null {
  if (change === null || change.kind === 'create' || !live?.autojoin) return null;
  const expired = new Set((change.removalReasons ?? []).map((reason) => reason.domain));
  if (expired.size === 0) return null;
  const after = change.before.filter((domain) => !expired.has(domain));
  const narrowed: Change = { ...change, kind: after.length === 0 ? 'clear' : 'update', after, explicitEmpty: after.length === 0 };
  const owner = (change.fieldChanges ?? []).filter((field) => field.field === 'owner');
  if (owner.length > 0) narrowed.fieldChanges = owner;
  else delete narrowed.fieldChanges;
  // Every other field as it is live: the name where it can be read (else left out, so the service keeps it), the
  // component the service shows (a componentId merged but not yet applied waits for its reviewed apply).
  if (live.scopeName !== undefined && live.scopeName !== null) narrowed.scopeName = live.scopeName;
  else delete narrowed.scopeName;
  if (live.componentId !== undefined) narrowed.componentId = live.componentId;
  if (change.metadata !== undefined) narrowed.metadata = managedLiveMetadata(live, change.metadata);
  const marker = liveMarker(live);
  if (marker && isPlainObject(live.metadata)) {
    narrowed.keepMarker = Object.fromEntries(Object.entries(live.metadata).filter(([key, value]) => isReservedKey(key) && typeof value === 'string')) as Record<string, string>;
  }
  return narrowed;
}

