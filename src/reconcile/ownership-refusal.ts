/**
 * The ownership guard of plan and apply (docs/ownership-pruning-drift.md, "Ownership"): a scope whose live marker names
 * another owner is never written unless the run takes it over (`--take-ownership TYPE/ID`), and
 * a saved plan's ownership claims are checked against the live state before anything is written.
 */
import { ownerLookalikeNote } from '../plan/owner-lookalike.js';
import { canonicalJson, ownerChange, shownMetadata } from '../plan/fields.js';
import { deactivatedMarker, keptMetadataOf, liveMarker } from '../plan/ownership.js';
import { PlanFileError } from '../plan/saved.js';
import { hint, projectFileName, worded, type Hint } from '../hint.js';
import { firstItems } from '../text.js';
import { shownLive } from '../redact.js';
import { parseScopeKey, scopeKey, type ScopeKey } from '../scope.js';
import type { Change, FieldChange, Plan } from '../plan/types.js';
import type { LiveScope } from '../service/types.js';

/** A change would write a scope another owner's marker claims; nothing was written. */
export class OwnedElsewhereError extends Error {
  /** The setting that takes the scopes over, with the first of them (src/hint.ts). */
  readonly hints: readonly Hint[];

  constructor(
    readonly scopes: { key: ScopeKey; owner: string }[],
    owner: string,
  ) {
    const named = firstItems(scopes.map((scope) => `${scope.key} (owner ${JSON.stringify(shownLive(scope.owner))}${ownerLookalikeNote(scope.owner, owner)})`), 10, (hidden) => `, and ${hidden} more`);
    const override = hint('takeOwnership', scopes.slice(0, 3).map((scope) => scope.key));
    super(
      `${named}: managed by another owner (autojoin-sync.owner on the autojoin invitation), ` +
        worded`not by this repository's owner "${owner}"; nothing was written. To take a scope over, run again with ${override}, ` +
        `or set \`owner\` in ${projectFileName()} if this repository is that owner.`,
    );
    this.hints = [override];
    this.name = 'OwnedElsewhereError';
  }
}

/** Changes of scopes whose answer carried no `metadata` while others showed it: whose they are cannot be told; nothing was written. */
export class UnknownOwnerError extends Error {
  readonly hints: readonly Hint[];

  constructor(readonly scopes: readonly ScopeKey[]) {
    const named = firstItems(scopes.map(String), 10, (hidden) => `, and ${hidden} more`);
    const override = hint('takeOwnership', scopes.slice(0, 3));
    super(
      `${named}: the service's answer carries no metadata field, while other scopes of this run show theirs, ` +
        worded`so its owner cannot be read (its marker may be hidden, not absent); nothing was written. To write it anyway, run again with ${override}.`,
    );
    this.hints = [override];
    this.name = 'UnknownOwnerError';
  }
}

/** @throws UnknownOwnerError for the scopes of `unknown` that the run does not take over. */
export function refuseUnknownOwner(unknown: readonly ScopeKey[], takeOwnership: ReadonlySet<ScopeKey> = new Set()): void {
  const refused = unknown.filter((key) => !takeOwnership.has(key));
  if (refused.length > 0) throw new UnknownOwnerError(refused);
}

/**
 * Parses the `--take-ownership` values (each `TYPE/ID`, or several separated by commas or newlines).
 * @returns the scope keys, normalized
 * @throws Error naming a value that is not `TYPE/ID`
 */
export function parseTakeOwnership(values: readonly string[]): Set<ScopeKey> {
  const keys = new Set<ScopeKey>();
  for (const item of values.flatMap((value) => value.split(/[,\n]/))) {
    const text = item.trim();
    if (text === '') continue;
    if (!/^[^/]+\/.+$/.test(text)) throw new Error(worded`${hint('takeOwnership', JSON.stringify(text))}: expected TYPE/ID, e.g. team/acme-eng`);
    keys.add(scopeKey(parseScopeKey(text)));
  }
  return keys;
}

/** The owner change of a change, if it shows one. */
function shownOwner(change: Change): FieldChange | undefined {
  return change.fieldChanges?.find((field) => field.field === 'owner');
}

/**
 * @returns the changes that would write over another owner's marker and are not taken over:
 *   each scope with the owner its marker names
 */
export function ownershipConflicts(plan: Plan, takeOwnership: ReadonlySet<ScopeKey> = new Set()): { key: ScopeKey; owner: string }[] {
  const conflicts: { key: ScopeKey; owner: string }[] = [];
  // An owner move (owner `default` from a commit of this history: history-place.ts) is no take-over.
  const moves = new Set(plan.ownerMoves ?? []);
  for (const change of plan.changes) {
    const before = shownOwner(change)?.before;
    if (typeof before === 'string' && before !== plan.owner && !takeOwnership.has(change.key) && !moves.has(change.key)) conflicts.push({ key: change.key, owner: before });
  }
  return conflicts;
}

/** @throws OwnedElsewhereError when {@link ownershipConflicts} finds any. */
export function refuseOwnedElsewhere(plan: Plan, takeOwnership?: ReadonlySet<ScopeKey>): void {
  const conflicts = ownershipConflicts(plan, takeOwnership);
  if (conflicts.length > 0) throw new OwnedElsewhereError(conflicts, plan.owner);
}

/**
 * A saved plan that takes scopes over (made with `--take-ownership`) needs the flag again at
 * apply, for each of them: the take-over is a choice of the one who applies, not of the file.
 * @throws OwnedElsewhereError-like PlanFileError naming the scopes and the flag
 */
export function refuseSavedTakeOver(plan: Plan, takeOwnership: ReadonlySet<ScopeKey> = new Set()): void {
  const missing = (plan.context?.takeOwnership ?? []).filter((key) => !takeOwnership.has(key));
  if (missing.length === 0) return;
  const named = firstItems(missing, 10, (hidden) => `, and ${hidden} more`);
  throw new PlanFileError(worded`the saved plan takes over ${named} from another owner or none; apply it with ${hint('takeOwnership', missing.slice(0, 3))} too; nothing was written`);
}

/** Refuses a saved plan whose writes would carry another owner's marker than this repository's. */
export function checkPlanOwner(planOwner: string, owner: string | undefined): void {
  if (owner === undefined || planOwner === owner) return;
  throw new PlanFileError(`the saved plan marks scopes with owner "${planOwner}", but this repository's owner is "${owner}" (${projectFileName()}); nothing was written`);
}

/**
 * A saved plan's ownership claims against the live state its fingerprint vouches for: the owner
 * change it shows (or its absence) and the live keys it keeps are what the differ finds now.
 * @returns null, or the first problem as one line
 */
export function ownershipLiveProblem(change: Change, now: LiveScope | undefined, owner: string): string | null {
  const expected = now ? ownerChange(now, owner) : null;
  const shown = shownOwner(change) ?? null;
  if (canonicalJson(expected) !== canonicalJson(shown)) {
    return `its owner change is ${shownLive(canonicalJson(shown))}, but the live marker makes it ${shownLive(canonicalJson(expected))} (live owner ${shownLive(canonicalJson(liveMarker(now)?.owner ?? null))})`;
  }
  const kept = keptMetadataOf(now, change.metadata);
  if (canonicalJson(kept ?? null) !== canonicalJson(change.keptMetadata ?? null)) return 'keptMetadata is not the live metadata its fingerprint vouches for';
  return null;
}

/** @returns a managed field's live value as fieldChanges shows it: metadata without the marker's keys, the owner its marker names. */
export function liveFieldValue(now: LiveScope | undefined, field: FieldChange['field'], managed?: Record<string, unknown>): unknown {
  if (field === 'owner') return (liveMarker(now) ?? deactivatedMarker(now))?.owner ?? null;
  if (field === 'metadata') return shownMetadata(now, managed);
  if (field === 'componentId') return now?.componentId ?? null;
  return now?.scopeName ?? null;
}
