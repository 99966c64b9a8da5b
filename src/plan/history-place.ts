/**
 * Where a plan's scopes were last written from, against this checkout's history (design,
 * "Behind and foreign checkouts", "Moving to a project file's owner"). Pure: the ancestry of the
 * marker commits comes from one git call (src/git/ancestry.ts).
 *  - A prune candidate whose marker (this owner's, or `default`'s) names a commit that is not an
 *    ancestor of HEAD is not managed here: listed, never cleared.
 *  - Any other change over such a marker is listed in `behind`: apply refuses the run unless
 *    --allow-behind names the scope.
 *  - A scope marked by owner `default` from a commit of this history, planned by another owner
 *    (the project file's), is an owner move: re-marked by the write, no take-over needed.
 */
import { compareScopeKeys, type ScopeKey } from '../scope.js';
import type { Marker } from './ownership.js';
import { movesFrom } from './run-owners.js';
import type { BehindScope, NotManagedHere, Plan } from './types.js';

/** The commits a check needs: this owner's, `default`'s and (a run of several projects) the run's other owners' markers that name one. */
export function markerCommitsToCheck(markers: ReadonlyMap<ScopeKey, Marker>, owner: string, runOwners?: ReadonlySet<string>): Set<string> {
  const commits = new Set<string>();
  for (const marker of markers.values()) if (marker.commit !== undefined && (marker.owner === owner || movesFrom(marker.owner, owner, runOwners))) commits.add(marker.commit);
  return commits;
}

/**
 * @param markers the live marker of each scope the plan compared (by key)
 * @param history the marker commits that are not ancestors of HEAD, and whether the clone is shallow
 * @param runOwners the owners of the run's projects (run-owners.ts; empty for a run of one)
 * @returns the plan with its prune clears from other histories moved to notManagedHere, and `behind` and `ownerMoves` set
 */
export function placeInHistory(plan: Plan, markers: ReadonlyMap<ScopeKey, Marker>, history: { notAncestors: ReadonlySet<string>; shallow: boolean }, runOwners?: ReadonlySet<string>): Plan {
  const behind: BehindScope[] = [];
  const ownerMoves: ScopeKey[] = [];
  const moved: NotManagedHere[] = [];
  const changes = plan.changes.filter((change) => {
    const marker = markers.get(change.key);
    if (marker?.commit === undefined || (marker.owner !== plan.owner && !movesFrom(marker.owner, plan.owner, runOwners))) return true;
    if (!history.notAncestors.has(marker.commit.toLowerCase())) {
      if (movesFrom(marker.owner, plan.owner, runOwners)) ownerMoves.push(change.key);
      return true;
    }
    if (change.reason === 'pruned') {
      moved.push({ key: change.key, owner: marker.owner, ...(change.removedBy ? { removedBy: change.removedBy } : {}), commit: marker.commit });
      return false;
    }
    behind.push({ key: change.key, commit: marker.commit, ...(history.shallow ? { missing: true } : {}) });
    return true;
  });
  const gone = new Set(moved.map((entry) => entry.key));
  const placed: Plan = {
    ...plan,
    changes,
    scopes: plan.scopes.filter((scope) => !gone.has(scope.key)),
    notManagedHere: [...plan.notManagedHere, ...moved].sort((a, b) => compareScopeKeys(a.key, b.key)),
  };
  if (behind.length > 0) placed.behind = behind;
  if (ownerMoves.length > 0) placed.ownerMoves = ownerMoves;
  return placed;
}
