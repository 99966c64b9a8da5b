/**
 * `makePlan`, as a list of steps: load the desired policies and find the prune candidates
 * (desired.ts: one stream of the scopes to plan) → read each one's live state as it comes
 * (`readEach`, src/service/state.ts) → add it to the plan builder (src/plan/plan-builder.ts) → the state
 * last applied where drift needs it (src/history/last-applied.ts) → the plan.
 */
import { countDiagnostics } from '../policy/index.js';
import { planBuilder } from '../plan/index.js';
import { countsScopes } from '../plan/merge.js';
import { plural } from '../text.js';
import { readEach, readLiveState } from '../service/state.js';
import { censusEntry } from '../plan/write-checks.js';
import { compareScopeKeys, splitScopeKey, type ScopeKey } from '../scope.js';
import type { Plan, PlanContext } from '../plan/types.js';
import type { NeededScope } from '../plan/three-way.js';
import { planContextOf } from '../run/context.js';
import type { LoadResult } from '../policy/types.js';
import { desiredScopes, NothingPlanned, planRequest, policyOf } from './desired.js';
import type { MakePlanOptions } from './plan-options.js';
import { lastAppliedReader, readLastApplied } from '../history/last-applied.js';
import { readKeysAt } from '../history/keys-at-commit.js';
import { refuseOwnedElsewhere, refuseUnknownOwner } from './ownership-refusal.js';
import { ancestryOfMarkers, placedBy } from '../history/behind.js';

export type { MakePlanOptions, PlanSettings } from './plan-options.js';

/**
 * Loads and validates the policies, reads the live state of their scopes and builds the plan.
 * Live state is read while the files are still loading: a scope's read starts as soon as its
 * batch of files passed and the window has room. When any file fails, the reads stop at the end
 * of its batch and nothing is planned.
 * @returns `plan` null when any diagnostic is an error (see `load.diagnostics`)
 */
export async function makePlan(options: MakePlanOptions): Promise<{ plan: Plan | null; load: LoadResult }> {
  const request = planRequest(options);
  const { owner, project } = options.settings;
  const { paths, base: cwd } = options.settings;
  const reading = { paths, cwd, project, secrets: options.secrets };
  // The state last applied of a held scope is asked of git as soon as it is held, while reads go on.
  const lastApplied = lastAppliedReader(reading);
  const onLastAppliedNeeded = (commit: string, scope: NeededScope): void => lastApplied.need(commit, scope);
  const runOwners = new Set(options.settings.runOwners ?? []);
  const builder = planBuilder({ target: options.target ?? options.client.baseUrl, shard: request.shard, replace: request.replace, owner, runOwners, takeOwnership: options.takeOwnership, drift: project.drift, onlyExpired: options.onlyExpired, now: new Date(options.settings.now), onLastAppliedNeeded, census: countsScopes(project.rules) });
  const desired = desiredScopes(options, request);
  // Each scope is compared as soon as it is read, so no live state is kept (memory flat in scopes).
  try {
    for await (const { item, live } of readEach(options.client, desired.scopes, policyOf, { mode: options.settings.read, onProgress: options.onProgress })) {
      if ('pruned' in item) builder.addPruned(item.pruned, live);
      else builder.add(item, live);
    }
  } catch (error) {
    lastApplied.abandon();
    if (error instanceof NothingPlanned) return { plan: null, load: await error.load() };
    // A file with an error wins over a failed read, however far loading had come when it failed.
    const rest = await desired.restOfLoad();
    if (rest?.failed) return { plan: null, load: rest.load };
    throw error;
  }
  // Markers without `autojoin-sync.keys`: the keys their policy declared then, one git batch (keys-at-commit.ts); before the
  // markers' ancestry and the last-applied reads, which the scopes held for it join once compared.
  builder.resolveKeys(await readKeysAt(builder.keysNeeded(), reading));
  // Behind and foreign markers, and owner moves: one git call for every marker commit (src/history/behind.ts), beside the last-applied reads.
  const ancestry = ancestryOfMarkers(builder.markers(), owner, { ...options.settings, runOwners, walked: desired.walked() });
  ancestry.catch(() => undefined); // awaited below; a failure is told there
  const [applied, lostFrom] = await Promise.all([lastApplied.read(builder.lastAppliedNeeded()), readLastApplied(builder.lostMarkersNeeded(), reading)]);
  const finished = await withCounted(builder.finish(applied, lostFrom), desired.counted(), options);
  const outside = desired.declaredOutside();
  const plan = placedBy(outside.length === 0 ? finished : { ...finished, declaredOutside: outside }, builder.markers(), await ancestry, runOwners);
  refuseOwnedElsewhere(plan, options.takeOwnership);
  refuseUnknownOwner(builder.unknownOwnership(), options.takeOwnership);
  plan.context = contextOf(plan, options);
  return { plan, load: desired.loaded() };
}

/**
 * --changed-since: the scopes of the files it did not read that a counting rule matches join the
 * plan's census, read from the service now (with their fingerprints, which apply --plan reads again).
 */
async function withCounted(plan: Plan, counted: readonly ScopeKey[], options: MakePlanOptions): Promise<Plan> {
  if (!plan.census || counted.length === 0) return plan;
  const read = new Set([...plan.scopes, ...plan.notManagedHere, ...plan.census].map((scope) => scope.key));
  const unread = counted.filter((key) => !read.has(key));
  if (unread.length === 0) return plan;
  const live = await readLiveState(options.client, unread.map(splitScopeKey), { mode: options.settings.read });
  const census = [...plan.census, ...unread.map((key) => censusEntry(key, live.get(key)))].sort((a, b) => compareScopeKeys(a.key, b.key));
  return { ...plan, census };
}

/** The run context the plan records (src/run/context.ts), with the scopes it takes over. */
function contextOf(plan: Plan, options: MakePlanOptions): PlanContext {
  const { settings, takeOwnership } = options;
  const taken = plan.changes.map((change) => change.key).filter((key) => takeOwnership?.has(key) === true);
  const context = { projectRecord: settings.projectRecord ?? null, limits: settings.limits ?? {}, project: settings.project, today: settings.today ?? plan.createdAt.slice(0, 10), head: settings.head };
  return planContextOf(context, taken);
}

/** @returns `N errors in the policy files; nothing was planned`: why makePlan returned no plan. */
export function nothingPlannedMessage(load: LoadResult): string {
  return `${plural(countDiagnostics(load.diagnostics).errors, 'error')} in the policy files; nothing was planned`;
}
