/**
 * Plans for tests, made the way production makes them: through `planBuilder` (src/plan/plan-builder.ts),
 * one scope at a time, as `makePlan` hands each scope over when its live state is read. Only the
 * order differs: here every live state is known up front.
 */
import { planBuilder, type PlanBuilderOptions } from '../../src/plan/plan-builder.js';
import { inShardOf } from '../../src/plan/shard.js';
import { encodePlan, type ChangeDocument } from '../../src/plan/encode.js';
import { compareScopeKeys, type ScopeKey } from '../../src/scope.js';
import type { Plan, PrunedPolicy } from '../../src/plan/types.js';
import type { Policy } from '../../src/policy/types.js';
import type { LiveScope } from '../../src/service/types.js';

/** What a test plan is made from. */
export interface BuildPlanInput extends PlanBuilderOptions {
  desired: readonly Policy[];
  live: ReadonlyMap<ScopeKey, LiveScope>;
  /** Policies gone now; one whose scope is still declared is left out, as the prune step does. */
  pruned?: readonly PrunedPolicy[];
}

/** @returns the plan of `input`: every desired scope, then every pruned one, added to one builder. */
export function buildPlan(input: BuildPlanInput): Plan {
  const keep = inShardOf(input.shard);
  const builder = planBuilder(input);
  const declared = new Set(input.desired.map((policy) => policy.key));
  for (const policy of input.desired.filter(keep)) builder.add(policy, input.live.get(policy.key));
  for (const policy of (input.pruned ?? []).filter(keep)) {
    if (!declared.has(policy.key)) builder.addPruned(policy, input.live.get(policy.key));
  }
  return builder.finish();
}

/**
 * The changes of a two-sided comparison, as the plan document shows them (with `added`, `removed`
 * and `unchanged`), sorted by key. Pruned scopes are taken over, so ownership never holds one back.
 */
export function diffChanges(desired: readonly Policy[], live: ReadonlyMap<ScopeKey, LiveScope>, pruned: readonly PrunedPolicy[] = []): ChangeDocument[] {
  const takeOwnership = new Set(pruned.map((policy) => policy.key));
  const plan = buildPlan({ desired, live, pruned, target: 'https://invitations.example.com', takeOwnership });
  return encodePlan(plan).changes.sort((a, b) => compareScopeKeys(a.key, b.key));
}
