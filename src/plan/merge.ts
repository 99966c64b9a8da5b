/**
 * Sharded runs as one reviewed run: `merge-plans` joins the N shard plans of one commit into one
 * plan, on which the safety limits and the "apply would refuse" caution are then decided (N
 * shards must not allow N times the removals); `apply --plan merged --shard K/N` applies the part
 * of the merged plan in shard K (`partOfPlan`). Both are pure: files are read and checked by the
 * caller, as `apply --plan` checks a plan.
 */
import { compareScopeKeys, type ScopeKey } from '../scope.js';
import { compareChanges } from './plan-builder.js';
import { canonicalJson } from './canonical-json.js';
import { formatShard, inShard, parseShard, type Shard } from './shard.js';
import type { Plan } from './types.js';
import { firstItems } from '../text.js';
import { CANNOT_READ } from './ownership.js';
import { isPlainObject } from '../plain-object.js';

/** Parts that do not make one plan: another context, a gap, a duplicate, an overlap, a whole plan. */
export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergeError';
  }
}

/** One shard plan and the file it was read from (named in every refusal). */
export interface PlanPart {
  file: string;
  plan: Plan;
}

/** What differs from part to part; every other field is the run context, and must be equal. */
const PART_FIELDS = new Set(['shard', 'createdAt', 'changes', 'scopes', 'notManagedHere', 'drift', 'redacted', 'notes', 'declaredOutside', 'behind', 'ownerMoves', 'census']);

/**
 * @returns one plan holding every part's changes, scopes, drift and not-managed scopes, in the
 *   order an unsharded plan has them, marked `shards: N`, dated by its earliest part.
 * @throws MergeError naming the files when the parts are not shards 1..N of one N made in one
 *   context (commit, project file, owner, target…), or when a scope is in the wrong part or in two.
 */
export function mergePlanParts(parts: readonly PlanPart[]): Plan {
  const [first, ...rest] = parts.map((part) => ({ ...part, shard: shardOfPart(part) }));
  if (first === undefined) throw new MergeError('merge-plans needs the shard plans to merge (plan --shard K/N --out FILE)');
  const total = checkCover(first, rest);
  checkOneContext(first, rest);
  checkScopesInShards([first, ...rest]);
  checkPartRecords(parts);
  // ISO 8601 times of one format: their text order is their time order.
  const createdAt = parts.map(({ plan }) => plan.createdAt).sort()[0] as string;
  const { shard: _shard, redacted: _redacted, notes: _notes, declaredOutside: _outside, behind: _behind, ownerMoves: _moves, census: _census, ...context } = first.plan;
  const merged: Plan = {
    ...context,
    createdAt,
    changes: parts.flatMap(({ plan }) => plan.changes).sort(compareChanges),
    scopes: parts.flatMap(({ plan }) => plan.scopes).sort(byKey),
    notManagedHere: parts.flatMap(({ plan }) => plan.notManagedHere).sort(byKey),
    drift: parts.flatMap(({ plan }) => plan.drift).sort(byKey),
    shards: total,
  };
  const redacted = parts.flatMap(({ plan }) => plan.redacted ?? []).sort(compareScopeKeys);
  if (redacted.length > 0) merged.redacted = redacted;
  // What one part could not read may be shown by another: "ownership cannot be read" holds only when no part's scope showed metadata.
  const shown = merged.scopes.some((scope) => scope.ownership === 'marked' || scope.ownership === 'unmarked');
  const notes = [...new Set(parts.flatMap(({ plan }) => plan.notes ?? []))].filter((note) => !shown || note !== CANNOT_READ.ownership);
  if (notes.length > 0) merged.notes = notes;
  const outside = new Map(parts.flatMap(({ plan }) => plan.declaredOutside ?? []).map((entry) => [entry.key, entry]));
  if (outside.size > 0) merged.declaredOutside = [...outside.values()].sort(byKey);
  const behind = parts.flatMap(({ plan }) => plan.behind ?? []).sort(byKey);
  if (behind.length > 0) merged.behind = behind;
  const moves = parts.flatMap(({ plan }) => plan.ownerMoves ?? []).sort(compareScopeKeys);
  if (moves.length > 0) merged.ownerMoves = moves;
  if (parts.some(({ plan }) => plan.census !== undefined)) merged.census = parts.flatMap(({ plan }) => plan.census ?? []).sort(byKey);
  return merged;
}

/**
 * @returns the part of a whole plan (merged, or made unsharded) that falls in `shard`: its
 *   changes, scopes, drift and not-managed scopes; the context is kept.
 * @throws MergeError when the plan is itself a part, or was merged from another number of shards.
 */
export function partOfPlan(plan: Plan, shard: Shard): Plan {
  if (plan.shard !== undefined) throw new MergeError(`the plan is shard ${plan.shard} alone: merge the parts first (merge-plans PART… --out FILE), then apply the merged plan with --shard`);
  if (plan.shards !== undefined && plan.shards !== shard.total) {
    throw new MergeError(`the plan was merged from ${plan.shards} shards; --shard ${formatShard(shard)} splits it into ${shard.total}: use --shard K/${plan.shards}`);
  }
  const keep = (item: { key: ScopeKey }): boolean => inShard(item.key, shard);
  return {
    ...plan,
    changes: plan.changes.filter(keep),
    scopes: plan.scopes.filter(keep),
    notManagedHere: plan.notManagedHere.filter(keep),
    drift: plan.drift.filter(keep),
    ...(plan.behind === undefined ? {} : { behind: plan.behind.filter(keep) }),
    ...(plan.ownerMoves === undefined ? {} : { ownerMoves: plan.ownerMoves.filter((key) => inShard(key, shard)) }),
  };
}

/**
 * The part of a saved plan an apply writes: the whole plan, or with `--shard K/N` the part of a
 * merged plan in shard K. A shard plan alone is refused: its limits were never decided on the whole.
 */
export function savedPlanPart(plan: Plan, file: string, shard: string | undefined): Plan {
  refusePartAlone(plan, file);
  return shard === undefined ? plan : partOfPlan(plan, parseShard(shard));
}

/** Refuses a part applied alone: its limits were decided on a part, never the whole. */
export function refusePartAlone(plan: Plan, file: string): void {
  if (plan.shard === undefined) return;
  throw new MergeError(`${file} is shard ${plan.shard} alone, never applied on its own (its safety limits would hold per shard): merge the parts with merge-plans, then apply the merged plan with --shard`);
}

function shardOfPart({ file, plan }: PlanPart): Shard {
  if (plan.shard === undefined) throw new MergeError(`${file} is not a shard plan (made without --shard${plan.shards === undefined ? '' : `; it was merged from ${plan.shards} shards already`})`);
  return parseShard(plan.shard);
}

/** A part and the shard it says it is. */
interface ShardPart extends PlanPart {
  shard: Shard;
}

/** @returns N, when the parts are shards 1..N of one N, each once. */
function checkCover(first: ShardPart, rest: readonly ShardPart[]): number {
  const { total } = first.shard;
  const other = rest.find(({ shard }) => shard.total !== total);
  if (other !== undefined) throw new MergeError(`${other.file} is shard ${formatShard(other.shard)}, ${first.file} is one of ${total}: every part must be one of the same N`);
  const seen = new Map<number, string>();
  for (const { file, shard } of [first, ...rest]) {
    const earlier = seen.get(shard.index);
    if (earlier !== undefined) throw new MergeError(`${earlier} and ${file} are both shard ${formatShard(shard)}`);
    seen.set(shard.index, file);
  }
  const missing = Array.from({ length: total }, (_, index) => index + 1).filter((index) => !seen.has(index));
  if (missing.length > 0) throw new MergeError(`shard ${firstItems(missing.map((index) => `${index}/${total}`), 5, (hidden) => `, and ${hidden} more`)} missing: a merged plan needs every shard 1..${total}`);
  return total;
}

/** Every part must come from one run context: one commit, project file, owner, target, settings. */
function checkOneContext(first: PlanPart, rest: readonly PlanPart[]): void {
  const reference = contextOf(first.plan);
  for (const part of rest) {
    const context = contextOf(part.plan);
    const differs = [...new Set([...Object.keys(reference), ...Object.keys(context)])].sort().filter((field) => reference[field] !== context[field]);
    if (differs.length > 0) {
      throw new MergeError(`${part.file} and ${first.file} were made in different contexts (${differs.join(', ')} differ): merge only the parts of one plan run`);
    }
  }
}

function contextOf(plan: Plan): Record<string, string> {
  return Object.fromEntries(
    Object.entries(plan)
      .filter(([field]) => !PART_FIELDS.has(field))
      .map(([field, value]) => [field, canonicalJson(value)]),
  );
}

/** Each part holds only its own shard's scopes, so no scope is in two parts. */
function checkScopesInShards(parts: readonly ShardPart[]): void {
  for (const { file, plan, shard } of parts) {
    const keys = [...plan.scopes, ...plan.changes, ...plan.notManagedHere, ...plan.drift].map((item) => item.key);
    const stray = keys.find((key) => !inShard(key, shard));
    if (stray !== undefined) throw new MergeError(`${file} holds ${stray}, which is not in shard ${formatShard(shard)}: the parts overlap or were made with another N`);
  }
}

/**
 * What spans scopes is decided over the merged whole (design.md, "One verdict"), from what every
 * part records: each scope's ownership status, and the census when a rule counts scopes per domain.
 * A part without them (made by an older release) cannot be judged with the others.
 */
function checkPartRecords(parts: readonly PlanPart[]): void {
  for (const { file, plan } of parts) {
    const unrecorded = plan.scopes.find((scope) => scope.ownership === undefined);
    if (unrecorded !== undefined) throw new MergeError(`${file} records no ownership status for ${unrecorded.key} (made by an older autojoin-sync?): merge-plans decides ownership over every part; make the parts again (plan --shard K/N --out FILE)`);
    if (countsScopes(plan.context?.rules) && plan.census === undefined) {
      throw new MergeError(`${file} records no census of the domains its rules count (maxScopesPerDomain): merge-plans counts them over every part; make the parts again (plan --shard K/N --out FILE)`);
    }
  }
}

/** @returns whether an error-level rule counts scopes per domain: then every plan keeps its census (Plan.census). */
export function countsScopes(rules: readonly unknown[] | undefined): boolean {
  return rules?.some((rule) => isPlainObject(rule) && rule.maxScopesPerDomain !== undefined && (rule.level ?? 'error') === 'error') ?? false;
}

function byKey(a: { key: ScopeKey }, b: { key: ScopeKey }): number {
  return compareScopeKeys(a.key, b.key);
}
