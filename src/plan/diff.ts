/**
 * The differ, shaped like DNSControl's diff2: both sides are keyed by scope first, then
 * each scope is compared on its own, so the comparison never has to search. Each scope
 * yields one change or none:
 *
 *  | live autojoin       | desired    | change            |
 *  |---------------------|------------|-------------------|
 *  | none (or absent)    | non-empty  | create            |
 *  | none (or absent)    | []         | —                 |
 *  | active              | non-empty  | update if domains, name or metadata differ |
 *  | active with domains | []         | clear             |
 *  | active, no domains  | []         | —                 |
 *
 * Pruned policies (declared in git history or at the --prune-from revision, gone now) become
 * desired [] before the comparison, as DNSControl copies hands-off records into desired, so the
 * differ has no special case for them beyond the reason it records (the plan builder, plan.ts,
 * takes each scope as its live state arrives). Name and metadata are
 * compared only where the file states them and the service shows them (fields.ts); the owner
 * of the ownership marker wherever the service shows metadata, so a scope without this owner's
 * marker is an update (a clear stays a clear, showing the owner it had).
 */
import type { Policy } from '../policy/types.js';
import { comparableDomain, comparableDomains, compareStrings } from '../comparable-domain.js';
import { fieldChanges, ownerChange } from './fields.js';
import { DEFAULT_OWNER, keptMetadataOf } from './ownership.js';
import { domainDelta, sameList } from './derived.js';
import type { Change, ChangeKind, FieldChange, PrunedPolicy, RemovalReason } from './types.js';
import type { LiveScope } from '../service/types.js';

/** One scope's desired side after pruned policies are folded in. */
export interface Desired {
  policy: Policy;
  domains: string[];
  reason: Change['reason'];
  explicitEmpty: boolean;
  removedBy?: Change['removedBy'];
}

/** @returns the desired side of a policy a file declares now. */
export function declaredDesired(policy: Policy): Desired {
  return { policy, domains: comparableDomains(policy.domains), reason: 'declared', explicitEmpty: policy.explicitEmpty };
}

/** @returns the desired side of a policy no file declares now: no domains. */
export function prunedDesired(policy: PrunedPolicy): Desired {
  // Not `domains: []` in a file: safety tells the two apart (a deletion needs no --allow-empty).
  return { policy, domains: [], reason: 'pruned', explicitEmpty: false, removedBy: policy.removedBy };
}

/**
 * Compares one scope's desired side with its live state (absent: no autojoin).
 * @param owner the owner this run's writes mark scopes with
 * @returns its change, or null when the scope already matches
 */
export function compareScope(desired: Desired, live: LiveScope | undefined, owner: string = DEFAULT_OWNER): Change | null {
  const after = desired.domains;
  if (!live?.autojoin) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: without domains there is no create, so no owner change to show
    const owned = live && after.length > 0 ? ownerChange(live, owner) : null;
    return after.length > 0 ? makeChange('create', desired, [], after, undefined, owned ? [owned] : []) : null;
  }
  const before = comparableDomains(live.domains);
  const owned = ownerChange(live, owner);
  if (after.length === 0) return before.length > 0 ? makeChange('clear', desired, before, after, live, owned ? [owned] : []) : null;
  const fields = [...fieldChanges(desired.policy, live), ...(owned ? [owned] : [])];
  if (sameList(before, after) && fields.length === 0) return null;
  return makeChange('update', desired, sharedWith(before, after), after, live, fields);
}

/**
 * @returns `before` (sorted, owned by the caller) holding `after`'s string for each domain both
 *   list: the plan keeps both sides of every change, and a domain both sides list is then one
 *   string, not one from the service's answer and one from the file.
 */
function sharedWith(before: string[], after: readonly string[]): string[] {
  // Stryker disable all: a memory saving only: strings compare by value, so no test can tell which of two equal strings a list holds
  for (let i = 0, j = 0; i < before.length && j < after.length; ) {
    const order = compareStrings(before[i] as string, after[j] as string);
    if (order === 0) before[i++] = after[j++] as string;
    else if (order < 0) i++;
    else j++;
  }
  // Stryker restore all
  return before;
}

/**
 * `--replace`: a scope that already matches is written again as its file says (an update with
 * no domain change), e.g. to send a new componentId, which the live state does not show.
 * @returns null when there is nothing to write (no active autojoin and no domains wanted)
 */
export function replaceScope(desired: Desired, live: LiveScope | undefined): Change | null {
  // Stryker disable next-line ConditionalExpression: a pruned scope's desired side has no domains (prunedDesired), so the line stops it already
  if (!live?.autojoin || desired.domains.length === 0 || desired.reason !== 'declared') return null;
  return makeChange('update', { ...desired, reason: 'replaced' }, sharedWith(comparableDomains(live.domains), desired.domains), desired.domains, live);
}

/**
 * An update of a scope whose domains, name and metadata already match: a write the domains
 * alone do not call for (a `componentId` that changed, shown by `fields`).
 */
export function forcedUpdate(desired: Desired, live: LiveScope, fields: FieldChange[]): Change {
  const before = comparableDomains(live.domains);
  return makeChange('update', desired, before, before, live, fields);
}

/** @returns the change aimed at another domain list (`drift: keep` on a conflict), or null when that list is the live one. */
export function withAfter(change: Change, after: readonly string[]): Change | null {
  const { added, removed } = domainDelta({ before: change.before, after });
  if (added.length + removed.length === 0 && (change.fieldChanges ?? []).length === 0) return null;
  const aimed = [...after];
  if (aimed.length === 0) return { ...change, kind: 'clear', after: aimed };
  return change.kind === 'clear' ? { ...change, kind: 'update', after: aimed } : { ...change, after: aimed };
}

function makeChange(
  kind: ChangeKind,
  desired: Desired,
  before: string[],
  after: string[],
  live?: LiveScope,
  fields: FieldChange[] = [],
): Change {
  const { policy } = desired;
  const common = {
    key: policy.key,
    scope: policy.scope,
    scopeType: policy.scopeType,
    componentId: policy.componentId,
    before,
    after,
    reason: desired.reason,
    source: policy.source,
    explicitEmpty: desired.explicitEmpty,
  };
  // The kind decides which fields may follow (types.ts); they are set below only where it allows them.
  const change: Change = { kind, ...common };
  if (policy.scopeName !== undefined) change.scopeName = policy.scopeName;
  if (policy.metadata !== undefined) change.metadata = policy.metadata;
  const kept = keptMetadataOf(live, policy.metadata);
  if (kept !== undefined) change.keptMetadata = kept;
  if (desired.removedBy) change.removedBy = desired.removedBy;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral,OptionalChaining: a create is made only without a live autojoin (compareScope passes no live), any other kind always with one
  if (change.kind !== 'create' && live?.autojoin) change.autojoin = live.autojoin;
  if (fields.length > 0) change.fieldChanges = fields;
  const reasons = expiryReasons(policy, domainDelta(change).removed);
  if (reasons.length > 0) change.removalReasons = reasons;
  return change;
}

/** @returns `expired YYYY-MM-DD` for each removed domain whose policy entry expired. */
function expiryReasons(policy: Policy, removed: readonly string[]): RemovalReason[] {
  // Stryker disable next-line ConditionalExpression: a shortcut: with nothing removed the filter below finds nothing either
  if (!policy.expired || removed.length === 0) return [];
  const gone = new Set(removed);
  return policy.expired.filter(({ domain }) => gone.has(comparableDomain(domain))).map(({ domain, expires }) => ({ domain: comparableDomain(domain), reason: `expired ${expires}` }));
}
