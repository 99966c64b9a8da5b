/**
 * Behind and foreign checkouts (design): a scope whose marker was written from a commit this
 * checkout does not contain is never cleared by pruning and never written unless the run names
 * it (`--allow-behind TYPE/ID`, globs; `*` re-anchors every marker after a history rewrite).
 * The ancestry of all the marker commits of a run is one git call (src/git/ancestry.ts).
 */
import { ancestryOf, type Ancestry, type WalkedHistory } from '../git/ancestry.js';
import { scopeGlob, type ScopeGlob } from '../policy/globs.js';
import { hint, worded } from '../hint.js';
import { markerCommitsToCheck, placeInHistory } from '../plan/history-place.js';
import { liveMarker, type Marker } from '../plan/ownership.js';
import { PlanFileError } from '../plan/saved.js';
import type { BehindScope, Plan } from '../plan/types.js';
import type { ScopeKey } from '../scope.js';
import type { LiveScope } from '../service/types.js';
import { firstItems } from '../text.js';
import { shortCommit } from '../redact.js';

/** Where the run's history is: the repository (its base) and HEAD; no HEAD (outside git): nothing is checked. */
export interface HistoryPlace {
  base: string;
  head?: string;
  /** A run of several projects: the owners of its projects, whose markers a move re-marks (src/plan/run-owners.ts). */
  runOwners?: ReadonlySet<string>;
  /** The history the run's pruning walked: answers the ancestry when it walked this HEAD. */
  walked?: WalkedHistory;
}

/** The plan placed in this checkout's history (history-place.ts): one git call for every marker commit. */
export async function placedInHistory(plan: Plan, markers: ReadonlyMap<ScopeKey, Marker>, where: HistoryPlace): Promise<Plan> {
  return placedBy(plan, markers, await ancestryOfMarkers(markers, plan.owner, where), where.runOwners);
}

/**
 * The ancestry of the commits of `owner`'s (and `default`'s) markers, in one git call; started
 * apart from {@link placedBy} so that it runs while the plan is still being finished.
 * @returns undefined when there is nothing to check (outside git, or no such marker)
 */
export async function ancestryOfMarkers(markers: ReadonlyMap<ScopeKey, Marker>, owner: string, where: HistoryPlace): Promise<Ancestry | undefined> {
  if (where.head === undefined) return undefined;
  const commits = markerCommitsToCheck(markers, owner, where.runOwners);
  if (commits.size === 0) return undefined;
  return ancestryOf(where.base, commits, where.walked?.head === where.head ? where.walked : undefined);
}

/** The plan placed in history by {@link ancestryOfMarkers}'s answer (undefined: as it is). */
export function placedBy(plan: Plan, markers: ReadonlyMap<ScopeKey, Marker>, ancestry: Ancestry | undefined, runOwners?: ReadonlySet<string>): Plan {
  return ancestry === undefined ? plan : placeInHistory(plan, markers, ancestry, runOwners);
}

/** A run would write scopes last written from commits this checkout does not contain; nothing was written. */
export class BehindCheckoutError extends Error {
  constructor(readonly scopes: readonly BehindScope[]) {
    const named = firstItems(scopes.map((scope) => `${scope.key} (commit ${shortCommit(scope.commit)})`), 20, (hidden) => `, and ${hidden} more`);
    const missing = scopes.some((scope) => scope.missing === true);
    super(
      missing
        ? `${named}: written from a commit this shallow clone cannot find; fetch the full history (\`fetch-depth: 0\` for actions/checkout, or \`git fetch --unshallow\`) so it can be checked; nothing was written`
        : `${named}: written from a commit this checkout does not contain (it is behind the last apply, or the marker is another history's); nothing was written. ` +
            worded`Update the checkout, or, when this history is the one to keep (after a rewrite), run again with ${hint('allowBehind', scopes.slice(0, 3).map((scope) => scope.key))}`,
    );
    this.name = 'BehindCheckoutError';
  }
}

/**
 * Parses the `--allow-behind` values: `TYPE/ID` globs (commas or newlines separate several), `*` for every scope.
 * @throws Error naming a value that is neither
 */
export function parseAllowBehind(values: readonly string[]): ScopeGlob[] {
  const globs: ScopeGlob[] = [];
  for (const item of values.flatMap((value) => value.split(/[,\n]/u))) {
    const text = item.trim();
    if (text === '') continue;
    const glob = text === '*' ? { pattern: '*', test: () => true } : scopeGlob(text);
    if (typeof glob === 'string') throw new Error(worded`${hint('allowBehind', JSON.stringify(text))}: ${glob}`);
    globs.push(glob);
  }
  return globs;
}

/** @throws BehindCheckoutError listing every scope of `behind` that no glob of `allowed` names (a missing commit always stops). */
export function refuseBehind(behind: readonly BehindScope[], allowed: readonly ScopeGlob[]): void {
  const refused = behind.filter((scope) => scope.missing === true || !allowed.some((glob) => glob.test(scope.key)));
  if (refused.length > 0) throw new BehindCheckoutError(refused);
}

/**
 * A saved plan at apply: its scopes are placed in the applying checkout's history again, from
 * the live state just read (the plan's own `behind` and `ownerMoves` are claims, not facts).
 * @throws BehindCheckoutError, or PlanFileError for an owner move the live marker does not make
 */
export async function checkSavedHistory(plan: Plan, live: ReadonlyMap<ScopeKey, LiveScope>, where: HistoryPlace, allowed: readonly ScopeGlob[]): Promise<void> {
  const markers = new Map<ScopeKey, Marker>();
  for (const change of plan.changes) {
    const marker = liveMarker(live.get(change.key));
    if (marker?.commit !== undefined) markers.set(change.key, marker);
  }
  // Stryker disable next-line ArrayDeclaration: of the placed ownerMoves only whether the plan's claimed ones are among them is read, and a placed plan always sets behind when it finds some
  const placed = await placedInHistory({ ...plan, behind: [], ownerMoves: [] }, markers, where);
  // A clear placeInHistory drops is another history's scope: as behind, never cleared unless named.
  const kept = new Set(placed.changes.map((change) => change.key));
  // Stryker disable next-line OptionalChaining,StringLiteral: placeInHistory drops only a change whose marker names a commit
  const dropped = plan.changes.filter((change) => !kept.has(change.key)).map((change) => ({ key: change.key, commit: markers.get(change.key)?.commit ?? '' }));
  // Stryker disable next-line ArrayDeclaration: placed.ownerMoves is always set (the plan given above sets it)
  const moves = new Set(placed.ownerMoves ?? []);
  const claimed = (plan.ownerMoves ?? []).find((key) => !moves.has(key));
  if (claimed !== undefined) throw new PlanFileError(`the saved plan is not valid: ${claimed}: its owner move is not one the live marker makes from this history; nothing was written`);
  // Stryker disable next-line ArrayDeclaration: placed.behind is always set (the plan given above sets it)
  refuseBehind([...(placed.behind ?? []), ...dropped], allowed);
}
