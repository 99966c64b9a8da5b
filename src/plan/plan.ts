import { createHash } from 'node:crypto';
import type { Policy } from '../policy/types.js';
import { compareScopeKeys, type ScopeKey } from '../scope.js';
import { desiredByKey, diffDesired } from './diff.js';
import { comparableDomains } from '../domain.js';
import { formatShard, inShardOf, type Shard } from './shard.js';
import { canonicalJson } from './fields.js';
import type { LiveScope } from '../service/types.js';
import {
  PLAN_FORMAT_VERSION,
  type Change,
  type ChangeKind,
  type Plan,
  type PlanSummary,
  type PrunedPolicy,
  type ScopeFingerprint,
} from './types.js';

/**
 * `target` of a plan made against the embedded emulator: renderers say so in the header, and
 * `AUTOJOIN_BASE_URL=embedded` asks for that emulator.
 */
export const EMBEDDED_TARGET = 'embedded';

/** What a plan is made from; everything is already read, nothing here does I/O. */
export interface BuildPlanInput {
  desired: readonly Policy[];
  live: ReadonlyMap<ScopeKey, LiveScope>;
  /** Policies gone now: present at the --prune-from revision, or in git history (--prune). */
  pruned?: readonly PrunedPolicy[];
  /** Base URL the live state was read from (any user:password part is dropped), or EMBEDDED_TARGET. */
  target: string;
  /** Keep only this shard's scopes (the caller may have filtered already; filtering twice is harmless). */
  shard?: Shard;
  now?: Date;
}

/**
 * Destructive changes come first so a reviewer reads them before anything else, and a
 * long plan cut short (a PR comment) still shows them (octoDNS orders deletes first too).
 */
const KIND_RANK: Record<ChangeKind, number> = { clear: 0, update: 1, create: 2 };

/** Sorts changes by kind rank, then scope key: the one order every format and hash uses. */
export function compareChanges(a: Change, b: Change): number {
  return KIND_RANK[a.kind] - KIND_RANK[b.kind] || compareScopeKeys(a.key, b.key);
}

/**
 * Builds the plan document: the changes, sorted, and a live fingerprint for every
 * scope it covers (desired and pruned, changed or not).
 */
export function buildPlan(input: BuildPlanInput): Plan {
  const { shard } = input;
  const keep = inShardOf(shard);
  const desired = input.desired.filter(keep);
  const pruned = (input.pruned ?? []).filter(keep);
  const byKey = desiredByKey(desired, pruned);
  const changes = diffDesired(byKey, input.live).sort(compareChanges);
  const keys = [...byKey.keys()].sort(compareScopeKeys);
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: (input.now ?? new Date()).toISOString(),
    target: withoutCredentials(input.target),
    changes,
    scopes: keys.map((key): ScopeFingerprint => ({ key, fingerprint: fingerprint(input.live.get(key)) })),
    summary: summarize(changes, keys.length),
  };
  if (shard) plan.shard = formatShard(shard);
  return plan;
}

/** Counts changes by kind and domains added/removed; `unchanged` = covered scopes without a change. */
export function summarize(changes: readonly Change[], scopeCount: number): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, clear: 0, unchanged: scopeCount - changes.length, domainsAdded: 0, domainsRemoved: 0 };
  for (const change of changes) {
    summary[change.kind] += 1;
    summary.domainsAdded += change.added.length;
    summary.domainsRemoved += change.removed.length;
  }
  return summary;
}

/**
 * The fingerprint of a scope without an active autojoin invitation. It is named rather than
 * hashed: a hash of "nothing" is the same for every scope and would vouch for any scope a
 * plan is edited to name, whereas this says what apply checks, that the scope still has none.
 */
export const NO_AUTOJOIN = 'no autojoin';

/**
 * What apply relies on in one scope's live state: whether autojoin is active, which
 * invitation carries it, its domains, and the name and metadata it shows (when it shows
 * them, so a scope without them hashes as before). Status, accepts and timestamps are left
 * out: they move without changing what apply would write.
 * @param live the scope's live state; undefined counts as no autojoin.
 * @returns {@link NO_AUTOJOIN}, or 64 hex characters (sha256) for an active autojoin invitation.
 */
export function fingerprint(live: LiveScope | undefined): string {
  const autojoin = live?.autojoin ?? null;
  if (autojoin === null) return NO_AUTOJOIN;
  const state: Record<string, unknown> = {
    active: true,
    invitationId: autojoin.invitationId,
    domains: comparableDomains(live?.domains ?? []),
  };
  if (live?.scopeName !== undefined) state.scopeName = live.scopeName;
  if (live?.metadata !== undefined) state.metadata = canonicalJson(live.metadata);
  const canonical = JSON.stringify(state);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** The plan records where it was made; a URL with user:password must not carry them into it. */
function withoutCredentials(target: string): string {
  try {
    const url = new URL(target);
    if (!url.username && !url.password) return target;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return target;
  }
}
