/**
 * The state last applied is evaluated at the date it was applied, never today (docs/ownership-pruning-drift.md, "Drift";
 * issue 33): a grant applied before its `expires` and planned after it was part of what the
 * repository wrote, so its removal is this repository's change, never drift. The marker keeps the
 * day of the write (`autojoin-sync.applied`); a marker from before that key is matched by its
 * digest against the file's state on each day an expired entry was still in force. Pure: no I/O.
 */
import { comparableDomains } from '../comparable-domain.js';
import { stateDigest, writtenStateOf, type Marker, type WrittenState } from './ownership.js';
import type { Policy } from '../policy/types.js';

/** @returns the state `policy` declared on `day`: today's domains and the entries not yet expired then */
export function stateAsOf(policy: Policy, day: string): WrittenState {
  const restored = (policy.expired ?? []).filter((entry) => !(entry.expires < day)).map((entry) => entry.domain);
  return writtenStateOf({ ...policy, domains: comparableDomains([...policy.domains, ...restored]) });
}

/**
 * @returns the state last applied, read from the files alone, when the files changed since only
 *   by entries that expired (the marker's digest is that of the file on the day it was applied);
 *   null otherwise (then git at the marker's commit tells, or the scope is this repository's change)
 */
export function appliedStateOf(policy: Policy, marker: Marker): WrittenState | null {
  if (!policy.expired?.length || !marker.digest) return null;
  const days = marker.applied ? [marker.applied] : [...new Set(policy.expired.map((entry) => entry.expires))].sort();
  for (const day of days) {
    const state = stateAsOf(policy, day);
    if (stateDigest(state) === marker.digest) return state;
  }
  return null;
}
