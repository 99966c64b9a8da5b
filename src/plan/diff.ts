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
 * differ has no special case for them beyond the reason it records. Name and metadata are
 * compared only where the file states them and the service shows them (fields.ts); the owner
 * of the ownership marker wherever the service shows metadata, so a scope without this owner's
 * marker is an update (a clear stays a clear, showing the owner it had).
 */
import type { Policy } from '../policy/types.js';
import { compareScopeKeys, type ScopeKey } from '../scope.js';
import { comparableDomain, comparableDomains } from '../domain.js';
import { fieldChanges, ownerChange } from './fields.js';
import { DEFAULT_OWNER, keptMetadataOf } from './ownership.js';
import type { Change, FieldChange, PrunedPolicy, RemovalReason } from './types.js';
import type { LiveScope } from '../service/types.js';

/** One scope's desired side after pruned policies are folded in. */
export interface Desired {
  policy: Policy;
  domains: string[];
  reason: Change['reason'];
  explicitEmpty: boolean;
  removedBy?: Change['removedBy'];
}

/**
 * Compares desired policies with live state.
 * @param desired policies from the files now.
 * @param live live state by scope key; a scope absent here counts as no autojoin.
 * @param pruned policies gone now (git history, or the --prune-from revision).
 * @returns one change per scope that differs, sorted by key.
 */
export function diff(desired: readonly Policy[], live: ReadonlyMap<ScopeKey, LiveScope>, pruned: readonly PrunedPolicy[] = []): Change[] {
  const changes: Change[] = [];
  for (const entry of desiredByKey(desired, pruned).values()) {
    const change = compareScope(entry, live.get(entry.policy.key));
    if (change) changes.push(change);
  }
  return changes.sort((a, b) => compareScopeKeys(a.key, b.key));
}

/**
 * Keys the desired side by scope. A pruned policy whose scope is still declared
 * (the file moved or was renamed) is not pruned: the current declaration wins.
 */
export function desiredByKey(desired: readonly Policy[], pruned: readonly PrunedPolicy[] = []): Map<ScopeKey, Desired> {
  const byKey = new Map<ScopeKey, Desired>();
  for (const policy of desired) {
    if (byKey.has(policy.key)) throw duplicateScope(policy);
    byKey.set(policy.key, declaredDesired(policy));
  }
  for (const policy of pruned) {
    if (byKey.has(policy.key)) continue;
    byKey.set(policy.key, prunedDesired(policy));
  }
  return byKey;
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

/** @returns the error for a scope declared by two policies (the loader lets neither through). */
function duplicateScope(policy: Policy): Error {
  return new Error(`scope ${policy.key} is declared twice (${policy.source.file}:${policy.source.line})`);
}

/**
 * Compares one scope's desired side with its live state (absent: no autojoin).
 * @param owner the owner this run's writes mark scopes with
 * @returns its change, or null when the scope already matches
 */
export function compareScope(desired: Desired, live: LiveScope | undefined, owner: string = DEFAULT_OWNER): Change | null {
  const after = desired.domains;
  if (!live?.autojoin) {
    const owned = live && after.length > 0 ? ownerChange(live, owner) : null;
    return after.length > 0 ? makeChange('create', desired, [], after, undefined, owned ? [owned] : []) : null;
  }
  const before = comparableDomains(live.domains);
  const owned = ownerChange(live, owner);
  if (after.length === 0) return before.length > 0 ? makeChange('clear', desired, before, after, live, owned ? [owned] : []) : null;
  const fields = [...fieldChanges(desired.policy, live), ...(owned ? [owned] : [])];
  if (sameList(before, after) && fields.length === 0) return null;
  return makeChange('update', desired, before, after, live, fields);
}

/**
 * `--replace`: a scope that already matches is written again as its file says (an update with
 * no domain change), e.g. to send a new componentId, which the live state does not show.
 * @returns null when there is nothing to write (no active autojoin and no domains wanted)
 */
export function replaceScope(desired: Desired, live: LiveScope | undefined): Change | null {
  if (!live?.autojoin || desired.domains.length === 0 || desired.reason !== 'declared') return null;
  return makeChange('update', { ...desired, reason: 'replaced' }, comparableDomains(live.domains), desired.domains, live);
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
  const beforeSet = new Set(change.before);
  const afterSet = new Set(after);
  const added = after.filter((domain) => !beforeSet.has(domain));
  const removed = change.before.filter((domain) => !afterSet.has(domain));
  if (added.length + removed.length === 0 && (change.fieldChanges ?? []).length === 0) return null;
  const kind = after.length === 0 ? 'clear' : change.kind === 'clear' ? 'update' : change.kind;
  return { ...change, kind, after: [...after], added, removed, unchanged: after.length - added.length };
}

function makeChange(
  kind: Change['kind'],
  desired: Desired,
  before: string[],
  after: string[],
  live?: LiveScope,
  fields: FieldChange[] = [],
): Change {
  const { policy } = desired;
  const beforeSet = new Set(before);
  const afterSet = new Set(after);
  const change: Change = {
    kind,
    key: policy.key,
    scope: policy.scope,
    scopeType: policy.scopeType,
    componentId: policy.componentId,
    before,
    after,
    added: after.filter((domain) => !beforeSet.has(domain)),
    removed: before.filter((domain) => !afterSet.has(domain)),
    unchanged: after.filter((domain) => beforeSet.has(domain)).length,
    reason: desired.reason,
    source: policy.source,
    explicitEmpty: desired.explicitEmpty,
  };
  if (policy.scopeName !== undefined) change.scopeName = policy.scopeName;
  if (policy.metadata !== undefined) change.metadata = policy.metadata;
  const kept = keptMetadataOf(live, policy.metadata);
  if (kept !== undefined) change.keptMetadata = kept;
  if (live?.autojoin) change.autojoin = live.autojoin;
  if (desired.removedBy) change.removedBy = desired.removedBy;
  if (fields.length > 0) change.fieldChanges = fields;
  const reasons = expiryReasons(policy, change.removed);
  if (reasons.length > 0) change.removalReasons = reasons;
  return change;
}

/** @returns `expired YYYY-MM-DD` for each removed domain whose policy entry expired. */
function expiryReasons(policy: Policy, removed: readonly string[]): RemovalReason[] {
  if (!policy.expired || removed.length === 0) return [];
  const gone = new Set(removed);
  return policy.expired.filter(({ domain }) => gone.has(comparableDomain(domain))).map(({ domain, expires }) => ({ domain: comparableDomain(domain), reason: `expired ${expires}` }));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
