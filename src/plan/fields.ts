/**
 * The scope's fields besides its domains that a policy manages when it states them: its name
 * (`scopeName`, shown by the service as `groups[].name`) and `metadata` (on the autojoin
 * invitation, without the ownership marker's keys); the `componentId`, wherever the service shows
 * it (`componentId` or `widgetId`: every write sends it); and the marker's `owner`, which every write
 * sets (ownership.ts). A field the file leaves out is not managed; a field the service does not show
 * cannot be compared, so it is not either (see LiveScope). Pure.
 */
import type { Policy } from '../policy/types.js';
import type { FieldChange } from './types.js';
import type { LiveScope } from '../service/types.js';
import { canonicalJson } from './canonical-json.js';
import { isPlainObject } from '../plain-object.js';
import { deactivatedMarker, liveMarker, managedLiveMetadata, unmarkedMetadata } from './ownership.js';

export { canonicalJson } from './canonical-json.js';

/** @returns the managed fields whose live value differs from the file's: scopeName, componentId, metadata. */
export function fieldChanges(policy: Policy, live: LiveScope): FieldChange[] {
  const changes: FieldChange[] = [];
  if (policy.scopeName !== undefined && live.scopeName !== undefined && live.scopeName !== policy.scopeName) {
    changes.push({ field: 'scopeName', before: live.scopeName, after: policy.scopeName });
  }
  if (live.componentId !== undefined && live.componentId !== policy.componentId) {
    changes.push({ field: 'componentId', before: live.componentId, after: policy.componentId });
  }
  // Per key: the keys the policy declares now or declared at the last write (ownership.ts).
  const shown = managedLiveMetadata(live, policy.metadata);
  const declared = policy.metadata ?? {};
  if (live.metadata !== undefined && (policy.metadata !== undefined || Object.keys(shown).length > 0) && !sameMetadata(shown, declared)) {
    changes.push({ field: 'metadata', before: shownMetadata(live, policy.metadata), after: policy.metadata ?? null });
  }
  return changes;
}

/**
 * The marker's field: an active autojoin invitation whose metadata the service shows must name
 * `owner`; one without a marker (before: null) is marked by the write, another owner's is taken
 * over (only with --take-ownership: see ownershipConflicts). Without an active one, a create
 * takes over only another owner's deactivated invitation (its marker outlives a clear).
 * @returns the owner change, or null when the marker names `owner` or the metadata is not shown
 */
export function ownerChange(live: LiveScope, owner: string): FieldChange | null {
  if (!live.autojoin) {
    const before = deactivatedMarker(live)?.owner;
    return before === undefined || before === owner ? null : { field: 'owner', before, after: owner };
  }
  if (live.metadata === undefined) return null;
  const before = liveMarker(live)?.owner ?? null;
  return before === owner ? null : { field: 'owner', before, after: owner };
}

/** @returns the live metadata as a field change shows it: this repository's keys of an object, any other value (null) as it is */
export function shownMetadata(live: LiveScope | undefined, managed: Record<string, unknown> | undefined): unknown {
  return isPlainObject(live?.metadata) ? managedLiveMetadata(live, managed) : (live?.metadata ?? null);
}

/** @returns the metadata as compared and shown: an object without the marker's keys, any other value as it is. */
export function withoutMarker(metadata: unknown): unknown {
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? unmarkedMetadata(metadata) : metadata;
}

/** Key order never matters, and "none" on the service (null) is the same as `metadata: {}`. */
function sameMetadata(live: unknown, desired: Record<string, unknown>): boolean {
  return canonicalJson(live ?? {}) === canonicalJson(desired);
}
