/**
 * Safety limits, checked on a finished plan before anything is written (as octoDNS's
 * Plan does). Every limit a plan breaks is collected, so one run tells the reviewer all
 * of them: the error thrown is the first violation, its message lists the rest, and
 * `violations` holds each one. Every message says which limit, which scopes, and how
 * to override it.
 *
 * What each limit counts:
 *  - maxRemovals (CLI --max-removals N): every domain removed, by updates and clears (pruned ones too), across the run.
 *  - safety.maxRemovalPercent: per scope, for updates; and run-wide for clears of deleted policy
 *    files (pruned), as a share of the scopes whose autojoin is active, so deleting most of the
 *    files is refused like octoDNS refuses deleting most of a zone. Creates never remove anything.
 *  - clears: a clear must be asked for with `domains: []` in its file, by deleting the file
 *    (a pruned clear: the deletion was reviewed like any edit), or with --allow-empty.
 */
import { hint, projectFileName, worded, type Hint } from '../hint.js';
import { firstItems } from '../text.js';
import { fingerprint } from './live-fingerprint.js';
import { domainDelta } from './derived.js';
import type { Change, Plan, SafetyLimits, ScopeFingerprint } from './types.js';

/**
 * Scopes with fewer existing domains than this are exempt from the percent limit: one
 * removal from a scope of 2 or 3 is already 33–50 %, so the limit would block ordinary
 * edits there, and --max-removals still bounds them.
 */
export const PERCENT_EXEMPT_BELOW = 4;

/** How many scope keys a message names before it says "and N more". */
const NAMED_SCOPES = 5;

/** A plan refused by a safety limit (exit 3); subclasses say which limit. */
export class UnsafePlanError extends Error {
  /** Every limit the plan breaks (this error first). */
  violations: UnsafePlanError[] = [this];
  /** The scope keys this limit names. */
  readonly scopes: string[];
  /** The settings that override this limit, with the values that would let the plan through (src/hint.ts). */
  readonly hints: readonly Hint[];

  constructor(message: string, scopes: string[], hints: readonly Hint[] = []) {
    super(message);
    this.name = 'UnsafePlanError';
    this.scopes = scopes;
    this.hints = hints;
  }
}

/** The run removes more domains in total than the maxRemovals setting allows. */
export class TooManyRemovalsError extends UnsafePlanError {
  constructor(readonly removals: number, readonly limit: number, scopes: string[]) {
    const override = hint('maxRemovals', removals);
    super(
      worded`plan removes ${removals} domains, more than the limit of ${limit} (${hint('maxRemovals')} or safety.maxRemovals), from ${nameScopes(scopes)}; ` +
        worded`to go ahead, run again with ${override}`,
      scopes,
      [override],
    );
    this.name = 'TooManyRemovalsError';
  }
}

/** One scope's share of removed domains in a {@link RemovalPercentError}. */
export interface ScopeRemoval {
  key: string;
  removed: number;
  total: number;
  percent: number;
}

/** An update removes more than safety.maxRemovalPercent of a scope's existing domains. */
export class RemovalPercentError extends UnsafePlanError {
  constructor(readonly removals: ScopeRemoval[], readonly limit: number) {
    const override = hint('maxRemovalPercent', Math.max(...removals.map((removal) => Math.ceil(removal.percent))));
    super(
      `plan removes more than ${limit}% of the domains of ${removals.length === 1 ? 'a scope' : `${removals.length} scopes`} ` +
        worded`(${hint('maxRemovalPercent')} or safety.maxRemovalPercent): ${describeRemovals(removals)}; ` +
        worded`to go ahead, run again with ${override} (or set safety.maxRemovalPercent in ${projectFileName()})`,
      removals.map((removal) => removal.key),
      [override],
    );
    this.name = 'RemovalPercentError';
  }
}

/** A clear of a scope whose file does not say `domains: []` (live domains the file does not list). */
export class UnintendedClearError extends UnsafePlanError {
  constructor(scopes: string[]) {
    const override = hint('allowEmpty', true);
    super(
      `plan clears ${nameScopes(scopes)} (deactivates autojoin) though no policy file says domains: []; ` +
        worded`to go ahead, run again with ${override}, or write domains: [] in the file`,
      scopes,
      [override],
    );
    this.name = 'UnintendedClearError';
  }
}

/** Clears of deleted policy files take more than safety.maxRemovalPercent of the active scopes. */
export class PrunePercentError extends UnsafePlanError {
  constructor(readonly cleared: string[], readonly active: number, readonly limit: number) {
    const percent = (cleared.length / active) * 100;
    const override = hint('maxRemovalPercent', Math.ceil(percent));
    super(
      `plan clears ${cleared.length} of ${active} scopes with active autojoin (${formatPercent(percent)}%) because their policy files were deleted, ` +
        `more than safety.maxRemovalPercent (${limit}%): ${nameScopes(cleared)}; ` +
        worded`to go ahead, run again with ${override} (or set safety.maxRemovalPercent in ${projectFileName()}), or add the scopes to prune.keep to leave them alone`,
      cleared,
      [override],
    );
    this.name = 'PrunePercentError';
  }
}

/**
 * Checks a plan against the safety limits.
 * @throws UnsafePlanError (a subclass per limit) when the plan breaks any limit.
 */
export function checkSafety(plan: Plan, limits: SafetyLimits): void {
  const violations = findViolations(plan.changes, limits, plan.scopes);
  const [first, ...rest] = violations;
  if (!first) return;
  first.violations = violations;
  if (rest.length > 0) first.message += ` — also: ${rest.map((violation) => violation.message).join(' — also: ')}`;
  throw first;
}

/**
 * @param scopes the plan's covered scopes with their live fingerprints: the run-wide percent rule
 *   for pruned clears counts those with active autojoin (without them it is not checked)
 * @returns every limit the changes break, in a fixed order; [] when the plan is safe.
 */
export function findViolations(changes: readonly Change[], limits: SafetyLimits, scopes?: readonly ScopeFingerprint[]): UnsafePlanError[] {
  const found = [
    checkClears(changes, limits),
    checkTotalRemovals(changes, limits),
    checkRemovalPercent(changes, limits),
    scopes ? checkPrunePercent(changes, scopes, limits) : null,
  ];
  return found.filter((violation): violation is UnsafePlanError => violation !== null);
}

function checkClears(changes: readonly Change[], limits: SafetyLimits): UnsafePlanError | null {
  if (limits.allowEmpty) return null;
  const unintended = changes.filter((change) => change.kind === 'clear' && change.explicitEmpty !== true && change.reason !== 'pruned');
  return unintended.length === 0 ? null : new UnintendedClearError(unintended.map((change) => change.key));
}

/** Pruned clears as a share of the scopes whose autojoin is active now (creates have none yet). */
function checkPrunePercent(changes: readonly Change[], scopes: readonly ScopeFingerprint[], limits: SafetyLimits): UnsafePlanError | null {
  const limit = limits.maxRemovalPercent;
  if (limit === undefined) return null;
  const cleared = changes.filter((change) => change.kind === 'clear' && change.reason === 'pruned').map((change) => change.key);
  if (cleared.length === 0) return null;
  const inactive = fingerprint(undefined);
  const active = scopes.filter((scope) => scope.fingerprint !== inactive).length;
  if (active < PERCENT_EXEMPT_BELOW || (cleared.length / active) * 100 <= limit) return null;
  return new PrunePercentError(cleared, active, limit);
}

function checkTotalRemovals(changes: readonly Change[], limits: SafetyLimits): UnsafePlanError | null {
  if (limits.maxRemovals === undefined) return null;
  const removing = changes.map((change) => ({ key: change.key, removed: domainDelta(change).removed.length })).filter((change) => change.removed > 0);
  const removals = removing.reduce((sum, change) => sum + change.removed, 0);
  if (removals <= limits.maxRemovals) return null;
  return new TooManyRemovalsError(removals, limits.maxRemovals, removing.map((change) => change.key));
}

function checkRemovalPercent(changes: readonly Change[], limits: SafetyLimits): UnsafePlanError | null {
  const limit = limits.maxRemovalPercent;
  if (limit === undefined) return null;
  const over = changes
    .filter((change) => change.kind === 'update' && change.before.length >= PERCENT_EXEMPT_BELOW)
    .map((change): ScopeRemoval => {
      const removed = domainDelta(change).removed.length;
      return { key: change.key, removed, total: change.before.length, percent: (removed / change.before.length) * 100 };
    })
    .filter((removal) => removal.percent > limit);
  return over.length > 0 ? new RemovalPercentError(over, limit) : null;
}

function describeRemovals(removals: readonly ScopeRemoval[]): string {
  return nameScopes(removals.map((r) => `${r.key} ${r.removed}/${r.total} (${formatPercent(r.percent)}%)`));
}

/** @returns the first {@link NAMED_SCOPES} items, then `and N more`. */
function nameScopes(items: readonly string[]): string {
  return firstItems(items, NAMED_SCOPES);
}

function formatPercent(percent: number): string {
  return Number.isInteger(percent) ? String(percent) : percent.toFixed(1);
}
