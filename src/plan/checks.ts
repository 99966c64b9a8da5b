/**
 * A saved plan is input, not a record to trust: anyone who can touch the file between the plan
 * job and the apply job can edit it. apply POSTs `scope`, `scopeType` and `after`, while
 * reviewers read `key` and the document's `added`, `removed` and `summary`; if those could
 * disagree, an edited plan would widen access while showing the reviewed diff. So every derived
 * field is recomputed (derived.ts) from the fields apply writes and must match before the
 * decoder drops it (encode.ts), and everything apply writes must pass the checks a policy file
 * passes. What no check can catch is a wholly consistent forgery: that is what `--plan-sha256`
 * pins (docs/security.md, "Security").
 *
 * Order of the checks: fingerprints (keys unique), then each change (key, fields a policy file
 * could hold, domains, kind, derived lists), then the summary. The first problem is reported.
 */
import { comparableDomains } from '../comparable-domain.js';
import { checkDomain } from '../policy/domains.js';
import { schemaProblem } from '../policy/schema.js';
import { splitScopeKey, scopeKey } from '../scope.js';
import { NO_AUTOJOIN } from './live-fingerprint.js';
import { canonicalJson } from './fields.js';
import { isReservedKey } from './ownership.js';
import { domainDelta, sameList, summarize } from './derived.js';
import type { ChangeDocument, PlanDocument } from './encode.js';
import type { ChangeKind } from './types.js';

/**
 * The consistency step of trusting a saved plan (src/reconcile/saved-plan.ts): every change has a
 * fingerprint (apply checks staleness per covered scope, so a change outside `scopes` would go
 * unchecked), then {@link planInconsistency}.
 * @returns null, or the whole message naming `file` and the first problem
 */
export function consistencyProblem(plan: PlanDocument, file: string): string | null {
  const covered = new Set(plan.scopes.map((scope) => scope.key));
  const index = plan.changes.findIndex((change) => !covered.has(change.key));
  if (index >= 0) return `${file} is not a valid plan: /changes/${index} (${plan.changes[index]?.key}) has no fingerprint in /scopes`;
  const inconsistency = planInconsistency(plan);
  return inconsistency ? `${file} is not a valid plan: ${inconsistency}; nothing was applied` : null;
}

/**
 * Checks that a saved plan holds together (see the module comment). Every change must have a
 * fingerprint in `scopes` (consistencyProblem checks that first).
 * @returns null when it does, else the first problem, e.g. `/changes/0 (team/a): added does not match before/after`
 */
export function planInconsistency(plan: PlanDocument): string | null {
  const fingerprints = scopeProblem(plan);
  if (fingerprints) return fingerprints;
  const covered = new Map(plan.scopes.map((scope) => [scope.key, scope.fingerprint]));
  const seen = new Set<string>();
  // A plan of several projects marks each change with its own project's owner.
  const owners = new Map((plan.projects ?? []).map((one) => [one.name, one.owner]));
  for (const [index, change] of plan.changes.entries()) {
    if (plan.projects !== undefined && !owners.has(change.project ?? '')) return `/changes/${index} (${change.key}): names no project of /projects`;
    const problem = changeProblem(change, covered.get(change.key) ?? '', seen) ?? ownershipProblem(change, owners.get(change.project ?? '') ?? plan.owner);
    if (problem) return `/changes/${index} (${change.key}): ${problem}`;
    seen.add(change.key);
  }
  const notManaged = notManagedProblem(plan, covered) ?? driftProblem(plan, covered);
  if (notManaged) return notManaged;
  const summary = summarize(plan);
  const wrong = (Object.keys(summary) as (keyof typeof summary)[]).find((name) => summary[name] !== plan.summary[name]);
  return wrong ? `/summary/${wrong} is ${plan.summary[wrong]}, but the changes count ${summary[wrong]}` : null;
}

function scopeProblem(plan: PlanDocument): string | null {
  const seen = new Set<string>();
  for (const [index, { key }] of plan.scopes.entries()) {
    if (seen.has(key)) return `/scopes/${index}: ${key} appears twice`;
    seen.add(key);
    const ref = splitScopeKey(key);
    const problem = schemaProblem('policy', { scope: ref.scope, scopeType: ref.scopeType, componentId: 'x', domains: [] });
    if (problem) return `/scopes/${index} (${key}): ${problem}`;
  }
  return null;
}

function changeProblem(change: ChangeDocument, fingerprint: string, seen: ReadonlySet<string>): string | null {
  if (seen.has(change.key)) return 'a second change of the same scope';
  if (change.key !== scopeKey(change)) return `key does not match scopeType/scope (${scopeKey(change)})`;
  const policy = {
    scope: change.scope,
    scopeType: change.scopeType,
    componentId: change.componentId,
    domains: change.after,
    ...(change.scopeName === undefined ? {} : { scopeName: change.scopeName }),
    ...(change.metadata === undefined ? {} : { metadata: change.metadata }),
  };
  const fields = schemaProblem('policy', policy);
  if (fields) return fields;
  return listProblem(change) ?? kindProblem(change, fingerprint) ?? derivedProblem(change) ?? fieldProblem(change);
}

/** What `fieldChanges` shows as the new name or metadata must be what apply sends. */
function fieldProblem(change: ChangeDocument): string | null {
  for (const field of change.fieldChanges ?? []) {
    if (field.field === 'owner') continue; // ownershipProblem
    const sent = canonicalJson(change[field.field] ?? null);
    if (canonicalJson(field.after) !== sent) return `fieldChanges shows ${field.field} ${canonicalJson(field.after)}, but apply sends ${sent}`;
  }
  return null;
}

/**
 * apply marks every write with the plan's owner: an owner change must show that owner as its new
 * value, and the kept live keys must hold no marker key (the marker is apply's to write).
 */
function ownershipProblem(change: ChangeDocument, owner: string): string | null {
  const shown = (change.fieldChanges ?? []).filter((field) => field.field === 'owner');
  if (shown.length > 1) return 'fieldChanges shows owner twice';
  const after = shown[0]?.after;
  if (after !== undefined && after !== owner) return `fieldChanges shows owner ${canonicalJson(after)}, but apply marks the scope with the plan's owner ${canonicalJson(owner)}`;
  if (shown[0]?.before === owner) return 'fieldChanges shows an owner change to the owner the scope already has';
  // Only apply --only-expired builds one, in memory: a saved plan never writes a marker of its own choosing.
  if (change.keepMarker !== undefined) return 'keepMarker is never part of a saved plan (apply --only-expired plans anew)';
  const reserved = Object.keys(change.keptMetadata ?? {}).find(isReservedKey);
  return reserved === undefined ? null : `keptMetadata holds the marker's key "${reserved}"`;
}

/** Each scope left as it is live (`drift: keep`) appears once, is covered, and is not written. */
function driftProblem(plan: PlanDocument, covered: ReadonlyMap<string, string>): string | null {
  const seen = new Set<string>();
  const changed = new Set(plan.changes.map((change) => change.key));
  for (const [index, entry] of plan.drift.entries()) {
    if (seen.has(entry.key) || changed.has(entry.key) || !covered.has(entry.key)) return `/drift/${index} (${entry.key}): a kept scope must be covered once and not changed`;
    seen.add(entry.key);
  }
  return null;
}

/** Each scope left alone as not managed here appears once, and is neither changed nor covered. */
function notManagedProblem(plan: PlanDocument, covered: ReadonlyMap<string, string>): string | null {
  const seen = new Set<string>();
  for (const [index, entry] of plan.notManagedHere.entries()) {
    if (seen.has(entry.key) || covered.has(entry.key)) return `/notManagedHere/${index} (${entry.key}): the scope appears twice in the plan`;
    if (entry.owner === plan.owner) return `/notManagedHere/${index} (${entry.key}): its owner is the plan's own, so pruning would clear it`;
    seen.add(entry.key);
  }
  return null;
}

/** before and after in the form the differ writes (normalized, unique, sorted); every domain of after valid. */
function listProblem(change: ChangeDocument): string | null {
  for (const side of ['before', 'after'] as const) {
    if (!sameList(change[side], comparableDomains(change[side]))) return `${side} is not a normalized, sorted list of domains`;
  }
  for (const domain of change.after) {
    const error = checkDomain(domain).find((finding) => finding.severity === 'error');
    if (error) return `after: ${error.message}`;
  }
  return null;
}

/** The kind follows from after and the fingerprint: [] clears; no autojoin creates; else it updates. */
function kindProblem(change: ChangeDocument, fingerprint: string): string | null {
  const expected: ChangeKind = change.after.length === 0 ? 'clear' : fingerprint === NO_AUTOJOIN ? 'create' : 'update';
  if (change.kind !== expected) return `kind is ${change.kind}, but before/after and the fingerprint make it ${expected}`;
  if (change.reason === 'pruned' && change.explicitEmpty === true) return 'a pruned scope cannot say domains: [] (explicitEmpty)';
  return null;
}

/** The derived fields a reader trusts (`added`, `removed`, `unchanged`) must be what before/after make them (derived.ts). */
function derivedProblem(change: ChangeDocument): string | null {
  const { added, removed, unchanged } = domainDelta(change);
  if (!sameList(change.added, added)) return `added does not match before/after (expected [${added.join(', ')}])`;
  if (!sameList(change.removed, removed)) return `removed does not match before/after (expected [${removed.join(', ')}])`;
  if (change.unchanged !== unchanged) return `unchanged is ${change.unchanged}, but before/after make it ${unchanged}`;
  const unexplained = (change.removalReasons ?? []).find(({ domain }) => !removed.includes(domain));
  if (unexplained) return `removalReasons names ${unexplained.domain}, which is not removed`;
  return null;
}
