/**
 * The scopes a plan reads, as one stream (makePlan, plan.ts, reads each as it comes):
 *  1. the desired policies, a batch of files at a time (src/policy/load.ts `streamPolicies`; read
 *     and checked in a worker thread when the built CLI has many files, load-worker.ts), or
 *     only the files changed since a revision (changed.ts); each batch's warnings handed over;
 *  2. with a check before the read (the DNS check), those policies held until it passed;
 *  3. the prune candidates (prune.ts), once every key declared now is known.
 * Nothing is kept per scope but the declared keys pruning needs. A failing file (or check) ends
 * the stream by throwing `NothingPlanned`, which stops the reads in flight; its `load()` then
 * finishes loading, so every diagnostic is still reported.
 */
import { checkPoliciesFound, compareDiagnostics, tolerateMissingPaths, type PolicyBatch } from '../policy/index.js';
import { streamPoliciesInWorker } from '../policy/load-worker.js';
import { inShardOf, parseShard, type Shard } from '../plan/index.js';
import { firstItems, plural } from '../text.js';
import { hint, projectFileName, worded } from '../hint.js';
import type { ScopeKey } from '../scope.js';
import type { DeclaredOutside, PrunedPolicy } from '../plan/types.js';
import type { Diagnostic, LoadResult, Policy } from '../policy/types.js';
import { checkTargetsMatched, inTargetsOf, parseReplace, parseTargets, type ScopeTargets } from '../plan/target.js';
import { findPruned, undeclaredInHistory, type PruneContext, type PruneRequest } from '../history/prune.js';
import { loadChangedSince } from '../history/changed.js';
import { countOverEveryFile } from './changed-counts.js';
import type { MakePlanOptions } from './plan-options.js';
import type { WalkedHistory } from '../git/ancestry.js';

/**
 * A scope to read and plan: a policy declared now, or a prune candidate (planned as a clear). A
 * declared policy is passed as it is, with no wrapper: the loader may be thousands of files ahead
 * of the reads, and each waits in memory until it is read.
 */
export type ScopeToPlan = Policy | { pruned: PrunedPolicy };

/** @returns the policy of a scope to plan, declared or pruned. */
export function policyOf(scope: ScopeToPlan): Policy {
  return 'pruned' in scope ? scope.pruned : scope;
}

/** What the run asked to plan, parsed once. */
export interface PlanRequest {
  prune: PruneRequest;
  shard: Shard | undefined;
  targets: ScopeTargets | undefined;
  replace: ReadonlySet<ScopeKey>;
  /** In the shard and the targets: read and planned. */
  inPlan: (policy: Policy) => boolean;
}

/** A file or the check before the read has an error: nothing is planned; `load()` finishes loading and gives every diagnostic. */
export class NothingPlanned extends Error {
  constructor(readonly load: () => Promise<LoadResult>) {
    super('nothing was planned');
    this.name = 'NothingPlanned';
  }
}

export function planRequest(options: MakePlanOptions): PlanRequest {
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const targets = parseTargets(options.targets?.scope, options.targets?.excludeScope);
  const inShard = inShardOf(shard);
  const inTargets = inTargetsOf(targets);
  return { prune: pruneRequest(options), shard, targets, replace: parseReplace(options.replace), inPlan: (policy) => inShard(policy) && inTargets(policy) };
}

/**
 * Pruning is on unless `--no-prune` (options.prune false) or the project file's `prune: false`.
 * `--changed-since` plans only the changed files, so it never prunes (its notice names the scopes
 * whose policy was deleted); asking for both explicitly is an error. `--only-expired` never prunes.
 */
function pruneRequest(options: MakePlanOptions): PruneRequest {
  // --only-expired writes the removals by expiry and nothing else: never a prune, from either front end.
  if (options.onlyExpired === true) return { history: false };
  const chosen = options.settings.prune;
  if (options.changedSince === undefined) return { from: options.pruneFrom, history: chosen ?? true };
  if (options.pruneFrom !== undefined || chosen === true) {
    throw new Error(worded`${hint('changedSince')} plans only the changed files, so it never prunes: drop ${hint('prune', true)} / ${hint('pruneFrom')}, or plan in full (without ${hint('changedSince')}) to see the clears`);
  }
  return { history: false };
}

/** The stream of scopes to plan, and what the load gave. */
export interface DesiredScopes {
  scopes: AsyncIterable<ScopeToPlan>;
  /** The load's result, once the stream has ended. */
  loaded: () => LoadResult;
  /**
   * When the stream was stopped while files were still loading (a live read failed): loads the
   * rest, for its diagnostics, so that a file with an error is reported whenever the read failed.
   * @returns the load's end, or null when loading had ended before the stop
   */
  restOfLoad: () => Promise<{ load: LoadResult; failed: boolean } | null>;
  /** Prune candidates a policy file outside the paths declares (not pruned), once the stream has ended. */
  declaredOutside: () => DeclaredOutside[];
  /** --changed-since: the scopes of every file an error-level counting rule matches (changed-counts.ts), once loaded; [] otherwise. */
  counted: () => ScopeKey[];
  /** The history pruning walked, once the stream has ended (undefined: it walked none). */
  walked: () => WalkedHistory | undefined;
}

/** Where loading stood when the stream was stopped: how to finish it. */
interface LoadStop {
  rest?: () => Promise<{ load: LoadResult; failed: boolean }>;
  /** Set by the prune step: candidates declared outside the paths. */
  outside?: DeclaredOutside[];
  /** Set by a --changed-since load: the scopes its counting rules match over every file. */
  counted?: ScopeKey[];
  /** Set by the prune step (or its count of what pruning would consider): the history it walked. */
  walked?: WalkedHistory;
}

/** @returns the stream of scopes to plan, the load's result once it has ended, and the rest of a stopped load */
export function desiredScopes(options: MakePlanOptions, request: PlanRequest): DesiredScopes {
  let result: LoadResult | undefined;
  const stop: LoadStop = {};
  async function* scopes(): AsyncGenerator<ScopeToPlan, void, undefined> {
    result = yield* scopesToPlan(options, request, stop);
  }
  const loaded = (): LoadResult => {
    if (result === undefined) throw new Error('the scopes to plan were not all read');
    return result;
  };
  return { scopes: scopes(), loaded, restOfLoad: () => (stop.rest ? stop.rest() : Promise.resolve(null)), declaredOutside: () => stop.outside ?? [], counted: () => stop.counted ?? [], walked: () => stop.walked };
}

async function* scopesToPlan(options: MakePlanOptions, request: PlanRequest, stop: LoadStop): AsyncGenerator<ScopeToPlan, LoadResult, undefined> {
  // Pruning (and, without it, the count of scopes it would consider) needs every key declared now.
  const declared = new Set<ScopeKey>();
  // With a check before the read, the policies wait for it instead of being read at once.
  const held: Policy[] | undefined = options.checkBeforeRead ? [] : undefined;
  const load = yield* loadedScopes(options, request, { declared, held, stop });
  if (held) load.diagnostics.push(...(yield* checkedScopes(held, load, options)));
  const pruneDiagnostics = yield* prunedScopes(options, request, declared, stop);
  return { ...load, diagnostics: [...load.diagnostics, ...pruneDiagnostics] };
}

/** Step 1: loads the policies, records every key declared, and yields (or holds) those to plan, a batch at a time. */
async function* loadedScopes(
  options: MakePlanOptions,
  request: PlanRequest,
  into: { declared: Set<ScopeKey>; held: Policy[] | undefined; stop: LoadStop },
): AsyncGenerator<ScopeToPlan, LoadResult, undefined> {
  const loading = policyBatches(options, into.stop);
  // A loader that throws (its worker died) has nothing left to load: no rest to finish after a failed read.
  const batches = {
    next: async () => {
      try {
        return await loading.next();
      } catch (error) {
        into.stop.rest = undefined;
        throw error;
      }
    },
  };
  const kept: Diagnostic[] = [];
  let next = await batches.next();
  // Stopped at a yield (a read failed): the rest of the files can still be loaded, for their errors.
  into.stop.rest = () => loadEnd(batches, kept, options);
  for (; !next.done; next = await batches.next()) {
    const { policies, warnings, failed } = next.value;
    if (warnings.length > 0) kept.push(...(await handOver(warnings, options)));
    // Once a file has an error nothing will be planned, so the reads stop at the end of its batch.
    if (failed) throw new NothingPlanned(async () => (await loadEnd(batches, kept, options)).load);
    for (const policy of policies) {
      into.declared.add(policy.key);
      if (!request.inPlan(policy)) continue;
      if (into.held) into.held.push(policy);
      else yield policy;
    }
  }
  into.stop.rest = undefined;
  const end = await finishLoad(next.value, kept, options);
  if (end.failed) throw new NothingPlanned(() => Promise.resolve(end.load));
  return end.load;
}

/** The loader's batches: every policy file (streamPolicies, in a worker thread when that pays), or those changed since `changedSince` in one batch. */
async function* policyBatches(options: MakePlanOptions, stop: LoadStop): AsyncGenerator<PolicyBatch, LoadResult, undefined> {
  const { base: cwd, project, roots, paths, today } = options.settings;
  // Today is the run context's (resolved once), not the clock's.
  if (options.changedSince === undefined) return yield* streamPoliciesInWorker(paths, { cwd, project, roots, secrets: options.secrets, ...(today === undefined ? {} : { today }) });
  // A rule that counts across files counts over every file, not only the changed ones (changed-counts.ts).
  const { load, counted } = await countOverEveryFile(await loadChangedSince(options.changedSince, paths, { cwd, project, secrets: options.secrets, notice: options.onNotice }), options);
  stop.counted = counted;
  // One batch, its diagnostics left for the result (handed over once, as a full load's).
  yield { policies: load.policies, warnings: [], failed: tolerateMissingPaths(load.diagnostics, options.allowNoPolicies).some(isError) };
  return load;
}

/** Drains the rest of a load that has failed, for its diagnostics. */
async function loadEnd(batches: Pick<AsyncGenerator<PolicyBatch, LoadResult, undefined>, 'next'>, kept: Diagnostic[], options: MakePlanOptions): Promise<{ load: LoadResult; failed: boolean }> {
  let next = await batches.next();
  for (; !next.done; next = await batches.next()) {
    if (next.value.warnings.length > 0) kept.push(...(await handOver(next.value.warnings, options)));
  }
  return finishLoad(next.value, kept, options);
}

/** The load's result, its diagnostics handed over: missing paths tolerated when asked, and no empty success (found.ts). */
async function finishLoad(loaded: LoadResult, kept: Diagnostic[], options: MakePlanOptions): Promise<{ load: LoadResult; failed: boolean }> {
  const { paths, base: cwd } = options.settings;
  const all = kept.length === 0 ? loaded.diagnostics : [...kept, ...loaded.diagnostics].sort(compareDiagnostics);
  const load = { ...loaded, diagnostics: tolerateMissingPaths(all, options.allowNoPolicies) };
  const failed = load.diagnostics.some(isError);
  // Under --changed-since, no changed policy file is an empty plan, not a wrong path.
  if (!failed && options.changedSince === undefined) checkPoliciesFound(paths, load, cwd, options.allowNoPolicies);
  return { load: { ...load, diagnostics: await handOver(load.diagnostics, options) }, failed };
}

/** Step 2: the check before the read over the held policies; yields them once it passed. @returns its diagnostics still to report */
async function* checkedScopes(held: Policy[], load: LoadResult, options: MakePlanOptions): AsyncGenerator<ScopeToPlan, Diagnostic[], undefined> {
  const checked = await handOver(await (options.checkBeforeRead as NonNullable<MakePlanOptions['checkBeforeRead']>)(held), options);
  if (checked.some(isError)) throw new NothingPlanned(() => Promise.resolve({ ...load, diagnostics: [...load.diagnostics, ...checked] }));
  yield* held.splice(0);
  return checked;
}

/** Step 3: the prune candidates in the plan, once every declared key is known. @returns the prune's diagnostics still to report */
async function* prunedScopes(options: MakePlanOptions, request: PlanRequest, declared: ReadonlySet<ScopeKey>, stop: LoadStop): AsyncGenerator<ScopeToPlan, Diagnostic[], undefined> {
  const { paths, base: cwd, project, prunePlace, baseRepository } = options.settings;
  // A project whose folder holds another's: its folder's history, without the other's (src/run/project-settings.ts).
  const context = { paths: prunePlace?.paths ?? paths, cwd, project, secrets: options.secrets, ...(prunePlace ? { excluded: prunePlace.excluded } : {}), ...(baseRepository ? { repository: baseRepository } : {}) };
  const found = await findPruned(request.prune, context, declared);
  stop.outside = (found.outside ?? []).filter((entry) => request.inPlan({ key: entry.key } as Policy));
  stop.walked = found.walked;
  if (request.prune.from === undefined && !request.prune.history && options.changedSince === undefined) await noticeUnpruned(context, declared, options.onNotice, stop);
  // Not a copy of every declared key: this runs when the reads are furthest behind the load.
  const pruned = new Set(found.pruned.map((policy) => policy.key));
  const seen = { has: (key: ScopeKey): boolean => declared.has(key) || pruned.has(key) };
  checkTargetsMatched(request.targets, seen);
  checkTargetsMatched({ include: request.replace, exclude: new Set() }, seen);
  const diagnostics = await handOver(found.diagnostics, options);
  for (const policy of found.pruned.filter(request.inPlan)) yield { pruned: policy };
  return diagnostics;
}

/** Without pruning, says how many scopes git history holds that no file declares now, and how to clear them. */
async function noticeUnpruned(context: PruneContext, declared: ReadonlySet<ScopeKey>, notice: ((message: string) => void) | undefined, stop: LoadStop): Promise<void> {
  if (!notice) return;
  const left = await undeclaredInHistory(context, declared, (history) => (stop.walked = history));
  if (!left || left.length === 0) return;
  const listed = firstItems(left, 5, () => ', …');
  notice(
    `git history holds ${plural(left.length, 'scope')} that no policy file declares now (${listed}); pruning is off, so their live autojoin is left as it is: ` +
      worded`plan without ${hint('prune', false)} (and without prune: false in ${projectFileName()}) to see them cleared`,
  );
}

/** @returns the diagnostics still to report: all of them, or, once handed to `onDiagnostics`, only the errors. */
async function handOver(diagnostics: Diagnostic[], options: Pick<MakePlanOptions, 'onDiagnostics'>): Promise<Diagnostic[]> {
  if (!options.onDiagnostics) return diagnostics;
  await options.onDiagnostics(diagnostics);
  return diagnostics.filter(isError);
}

function isError(diagnostic: Diagnostic): boolean {
  return diagnostic.severity === 'error';
}
