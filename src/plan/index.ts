export type * from './types.js';
export { diff } from './diff.js';
export { PLAN_FORMAT_VERSION } from './types.js';
export { fieldChanges, canonicalJson } from './fields.js';
export { comparableDomain, comparableDomains } from '../domain.js';
export { buildPlan, compareChanges, EMBEDDED_TARGET, fingerprint, NO_AUTOJOIN, planBuilder, summarize, type BuildPlanInput, type PlanBuilder } from './plan.js';
export {
  checkSafety,
  findViolations,
  PERCENT_EXEMPT_BELOW,
  PrunePercentError,
  RemovalPercentError,
  TooManyRemovalsError,
  UnintendedClearError,
  UnsafePlanError,
  type ScopeRemoval,
} from './safety.js';
export { parsePlan, parsePlanSchema, planDigest, PlanFileError, serializePlan } from './saved.js';
export { markRedacted, refuseRedactedPlan } from './redacted.js';
export { formatShard, inShard, inShardOf, parseShard, shardIndexOf, ShardError, type Shard } from './shard.js';
