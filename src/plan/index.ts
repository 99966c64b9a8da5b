export type * from './types.js';
export { PLAN_FORMAT_VERSION } from './types.js';
export { fieldChanges, canonicalJson } from './fields.js';
export { comparableDomain, comparableDomains } from '../comparable-domain.js';
export { fingerprint, NO_AUTOJOIN } from './live-fingerprint.js';
export { compareChanges, EMBEDDED_TARGET, planBuilder, type PlanBuilder, type PlanBuilderOptions } from './plan-builder.js';
export { domainDelta, sameList, summarize, type DomainDelta } from './derived.js';
export { decodePlan, encodePlan, serializePlan, type ChangeDocument, type PlanDocument } from './encode.js';
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
export { parsePlan, parsePlanSchema, planDigest, PlanFileError } from './saved.js';
export { markRedacted, refuseRedactedPlan } from './redacted.js';
export { formatShard, inShard, inShardOf, parseShard, shardIndexOf, ShardError, type Shard } from './shard.js';
export { mergePlanParts, MergeError, partOfPlan, refusePartAlone, savedPlanPart, type PlanPart } from './merge.js';
