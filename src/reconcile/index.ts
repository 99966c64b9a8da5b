/**
 * The orchestrator both front ends call (src/cli, src/action); neither plans or applies on its own.
 * Like octoDNS's Manager.sync, each entry point reads as a list of steps:
 *  - makePlan:    load policies (each scope's live state read as soon as its file passes) → shard →
 *                 pruned scopes (--prune, --prune-from; prune.ts) → the rest of the live state → buildPlan
 *  - applyPlan:   checkSafety → (saved plan) re-read and compare fingerprints → applyChanges
 *  - importScopes: read live state → one canonical policy document per scope
 */
import { checkSafety, comparableDomains, fingerprint, inShardOf, parseShard, planBuilder, PlanFileError, refuseRedactedPlan, type PlanBuilder, type Shard } from '../plan/index.js';
import { checkPoliciesFound, countDiagnostics, loadPolicies, renderPolicyDocument, tolerateMissingPaths, type LoadOptions, type NamedSecret } from '../policy/index.js';
import { firstItems, plural } from '../text.js';
import { hint, worded } from '../hint.js';
import { readLiveState, startLiveReader, type LiveReader } from '../service/state.js';
import { canonicalJson } from '../plan/fields.js';
import { applyChanges } from '../apply/apply.js';
import { scopeKey, splitScopeKey, type ScopeKey, type ScopeRef } from '../scope.js';
import type { ServiceClient } from '../service/client.js';
import type { Plan } from '../plan/types.js';
import type { LiveScope } from '../service/types.js';
import type { Diagnostic, LoadResult, Policy } from '../policy/types.js';
import type { RunSettings } from '../run/settings.js';
import type { ApplyReport } from '../apply/types.js';
import { checkTargetsMatched, inTargetsOf, parseReplace, parseTargets, type ScopeTargets } from '../plan/target.js';
import { PlanTargetError, StalePlanError } from './errors.js';
import { findPruned, undeclaredInHistory, type PruneContext, type PruneRequest } from './prune.js';
import { loadChangedSince } from './changed.js';
import { readLastApplied } from './last-applied.js';
import { isLoopbackUrl } from '../service/base-url.js';
import { checkPlanOwner, liveFieldValue, ownershipLiveProblem, refuseOwnedElsewhere } from './ownership.js';
import { withoutMarker } from '../plan/fields.js';

type Progress = (done: number, total: number) => void;

/** What planning needs of the run's settings (src/run/settings.ts): paths relative to `base`, which is where the run works. */
export type PlanSettings = Pick<RunSettings, 'base' | 'paths' | 'roots' | 'project' | 'owner' | 'read' | 'concurrency' | 'prune'>;

export interface MakePlanOptions {
  settings: PlanSettings;
  client: ServiceClient;
  /** Git revision whose policy files name the scopes to clear when their policy is gone now. */
  pruneFrom?: string;
  /** A path set with no policy file is fine (exit 0): the "prune everything" case. */
  allowNoPolicies?: boolean;
  /** Where the plan says it was made (default: the client's base URL); `embedded` for the embedded emulator. */
  target?: string;
  /** `K/N`: plan only the scopes of shard K of N. */
  shard?: string;
  /** `--scope` / `--exclude-scope`: plan only these scopes (TYPE/ID keys); one no policy declares is an error. */
  targets?: { scope?: readonly string[]; excludeScope?: readonly string[] };
  /** `--replace`: scopes (TYPE/ID) written again even when nothing differs; one no policy declares is an error. */
  replace?: readonly string[];
  /** Progress of the live-state read. */
  onProgress?: Progress;
  /** Git revision: load only the policy files changed since it (changed.ts); cannot be combined with pruneFrom. */
  changedSince?: string;
  /** Notices for the user, e.g. scopes whose policy was deleted since `changedSince`. */
  onNotice?: (message: string) => void;
  /**
   * Takes the diagnostics as soon as they are known (the warnings of each batch of policy files
   * as it is checked, the rest once all are loaded, then the prune's), while live state is still
   * being read, so thousands of warnings are never held at once. When set, the result's
   * `load.diagnostics` keeps only the errors, which `onDiagnostics` had too.
   */
  onDiagnostics?: (diagnostics: readonly Diagnostic[]) => void | Promise<void>;
  /** The run's secrets: a policy file holding one's value is an error (policy/secrets.ts). */
  secrets?: readonly NamedSecret[];
  /**
   * A check of every policy to plan that needs them all and the network (the DNS check,
   * src/run/dns.ts): run once loading passed and before any live read starts; its diagnostics
   * are handed over as the loader's are, and an error among them plans nothing.
   */
  checkBeforeRead?: (policies: readonly Policy[]) => Promise<Diagnostic[]>;
  /** Scopes the run may take over from another owner (--take-ownership TYPE/ID). */
  takeOwnership?: ReadonlySet<ScopeKey>;
}

/**
 * Loads and validates the policies, reads the live state of their scopes and builds the plan.
 * Live state is read while the files are still loading: a scope's read starts as soon as its file
 * passes. When any file fails, the reads stop and nothing is planned.
 * @returns `plan` null when any diagnostic is an error (see `load.diagnostics`)
 */
export async function makePlan(options: MakePlanOptions): Promise<{ plan: Plan | null; load: LoadResult }> {
  const prune = pruneRequest(options);
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const targets = parseTargets(options.targets?.scope, options.targets?.excludeScope);
  const replace = parseReplace(options.replace);
  // Each scope is compared as soon as it is read, so no live state is kept (memory flat in scopes).
  const owner = options.settings.owner;
  const builder = planBuilder({ target: options.target ?? options.client.baseUrl, shard, replace, owner, takeOwnership: options.takeOwnership, drift: options.settings.project.drift });
  const planning: Planning = { shard, targets, replace, builder, pruned: new Set() };
  const reader = startLiveReader<Policy>(options.client, {
    listing: options.settings.read,
    concurrency: options.settings.concurrency,
    onProgress: options.onProgress,
    onScope: (live, policy) => (planning.pruned.has(policy) ? planning.builder.addPruned(policy, live) : planning.builder.add(policy, live)),
  });
  try {
    const result = await loadAndPlan(options, prune, reader, planning);
    if (result.plan === null) await reader.cancel();
    else refuseOwnedElsewhere(result.plan, options.takeOwnership);
    return result;
  } catch (error) {
    await reader.cancel();
    throw error;
  }
}

/**
 * Pruning is on unless `--no-prune` (options.prune false) or the project file's `prune: false`.
 * `--changed-since` plans only the changed files, so it never prunes (its notice names the scopes
 * whose policy was deleted); asking for both explicitly is an error.
 */
function pruneRequest(options: MakePlanOptions): PruneRequest {
  const chosen = options.settings.prune;
  if (options.changedSince === undefined) return { from: options.pruneFrom, history: chosen ?? true };
  if (options.pruneFrom !== undefined || chosen === true) {
    throw new Error(worded`${hint('changedSince')} plans only the changed files, so it never prunes: drop ${hint('prune', true)} / ${hint('pruneFrom')}, or plan in full (without ${hint('changedSince')}) to see the clears`);
  }
  return { history: false };
}

/** The plan being built as live states arrive, and the policies to plan as clears (found after loading). */
interface Planning {
  shard: Shard | undefined;
  targets: ScopeTargets | undefined;
  replace: ReadonlySet<ScopeKey>;
  builder: PlanBuilder;
  pruned: Set<Policy>;
}

async function loadAndPlan(
  options: MakePlanOptions,
  prune: PruneRequest,
  reader: LiveReader<Policy>,
  planning: Planning,
): Promise<{ plan: Plan | null; load: LoadResult }> {
  const { paths, base: cwd, project } = options.settings;
  const inShardNow = inShardOf(planning.shard);
  const inTargets = inTargetsOf(planning.targets);
  const inThisShard = (policy: Policy): boolean => inShardNow(policy) && inTargets(policy);
  // Pruning (and, without it, the count of scopes it would consider) needs every key declared now.
  const declared = new Set<ScopeKey>();
  // With a check before the read, policies wait for it instead of being read at once.
  const held: Policy[] | undefined = options.checkBeforeRead ? [] : undefined;
  const take = (policy: Policy): void => {
    declared.add(policy.key);
    if (!inThisShard(policy)) return;
    if (held) held.push(policy);
    else reader.add([policy]);
  };
  // Once a file has an error nothing will be planned, so the reads stop there.
  const onBatch = async (loadFailed: boolean): Promise<void> => {
    if (loadFailed) await reader.cancel();
  };
  const { load, failed } = await loadToPlan(paths, options, { onPolicy: take, onBatch });
  if (failed) return { plan: null, load };
  // A full load handed its policies over as it went and kept none; --changed-since hands them here.
  for (const policy of load.policies) take(policy);
  if (held && options.checkBeforeRead) {
    const checked = await handOver(await options.checkBeforeRead(held), options);
    if (hasErrors(checked)) return { plan: null, load: { ...load, diagnostics: [...load.diagnostics, ...checked] } };
    reader.add(held);
    load.diagnostics.push(...checked);
  }
  const context = { paths, cwd, project, secrets: options.secrets };
  const then = await findPruned(prune, context, declared);
  if (prune.from === undefined && !prune.history && options.changedSince === undefined) await noticeUnpruned(context, declared, options.onNotice);
  for (const policy of then.pruned.filter(inThisShard)) planning.pruned.add(policy);
  const seen = new Set([...declared, ...then.pruned.map((policy) => policy.key)]);
  checkTargetsMatched(planning.targets, seen);
  checkTargetsMatched({ include: planning.replace, exclude: new Set() }, seen);
  const pruneDiagnostics = await handOver(then.diagnostics, options);
  reader.add(planning.pruned);
  await reader.finish();
  const lastApplied = await readLastApplied(planning.builder.lastAppliedNeeded(), { paths, cwd, project, secrets: options.secrets });
  return { plan: planning.builder.finish(lastApplied), load: { ...load, diagnostics: [...load.diagnostics, ...pruneDiagnostics] } };
}

/** Without pruning, says how many scopes git history holds that no file declares now, and how to clear them. */
async function noticeUnpruned(context: PruneContext, declared: ReadonlySet<ScopeKey>, notice: ((message: string) => void) | undefined): Promise<void> {
  if (!notice) return;
  const left = await undeclaredInHistory(context, declared);
  if (!left || left.length === 0) return;
  const listed = firstItems(left, 5, () => ', …');
  notice(
    `git history holds ${plural(left.length, 'scope')} that no policy file declares now (${listed}); pruning is off, so their live autojoin is left as it is: ` +
      worded`plan without ${hint('prune', false)} (and without prune: false in autojoin-sync.yaml) to see them cleared`,
  );
}

/**
 * Loads the policies (all, handing each passing one to `onPolicy`, or those changed since
 * `changedSince`) and hands their diagnostics over. Its own frame, so nothing here outlives it
 * but what it returns (a suspended async function keeps its locals).
 * @returns `failed` when any diagnostic is an error
 */
async function loadToPlan(
  paths: string[],
  options: MakePlanOptions,
  streaming: Pick<LoadOptions, 'onPolicy' | 'onBatch'>,
): Promise<{ load: LoadResult; failed: boolean }> {
  const { base: cwd, project, roots } = options.settings;
  const loaded =
    options.changedSince === undefined
      ? await loadPolicies(paths, { cwd, project, roots, secrets: options.secrets, ...streaming, onWarnings: options.onDiagnostics })
      : await loadChangedSince(options.changedSince, paths, { cwd, project, secrets: options.secrets, notice: options.onNotice });
  const load = { ...loaded, diagnostics: tolerateMissingPaths(loaded.diagnostics, options.allowNoPolicies) };
  const failed = hasErrors(load.diagnostics);
  // Under --changed-since, no changed policy file is an empty plan, not a wrong path.
  if (!failed && options.changedSince === undefined) checkPoliciesFound(paths, load, cwd, options.allowNoPolicies);
  return { load: { ...load, diagnostics: await handOver(load.diagnostics, options) }, failed };
}

/** @returns the diagnostics still to report: all of them, or, once handed to `onDiagnostics`, only the errors. */
async function handOver(diagnostics: Diagnostic[], options: Pick<MakePlanOptions, 'onDiagnostics'>): Promise<Diagnostic[]> {
  if (!options.onDiagnostics) return diagnostics;
  await options.onDiagnostics(diagnostics);
  return diagnostics.filter((d) => d.severity === 'error');
}

/** @returns `N errors in the policy files; nothing was planned`: why makePlan returned no plan. */
export function nothingPlannedMessage(load: LoadResult): string {
  return `${plural(countDiagnostics(load.diagnostics).errors, 'error')} in the policy files; nothing was planned`;
}

export { MAX_PLAN_BYTES, readSavedPlan } from './saved-plan.js';

export interface ApplyPlanOptions {
  client: ServiceClient;
  plan: Plan;
  settings: Pick<RunSettings, 'limits' | 'concurrency' | 'read'>;
  /** Where this run goes, as plans record it (default: the client's base URL); checked against a saved plan's. */
  target?: string;
  /** For a saved plan: refuse (StalePlanError) when any scope's live state moved since. */
  verifyFingerprints?: boolean;
  /** Scopes this run may take over from another owner (--take-ownership TYPE/ID). */
  takeOwnership?: ReadonlySet<ScopeKey>;
  /** This repository's owner (the project file's); a saved plan made for another owner is refused. */
  owner?: string;
  /** The commit HEAD points to, recorded in each write's marker (`autojoin-sync.commit`); none outside git. */
  commit?: string;
  /** Notices for the user, e.g. that the service keeps no ownership marker. */
  onNotice?: (message: string) => void;
  /** Called after every check and before the first write; throw to write nothing (e.g. the user said no). */
  confirm?: () => Promise<void>;
  onProgress?: Progress;
  /** When aborted, changes not yet started are reported as skipped. */
  signal?: AbortSignal;
}

/**
 * Applies a plan: safety limits first (throws UnsafePlanError), then, for a saved plan, the
 * fingerprint check (throws StalePlanError), then the confirmation, then the POSTs.
 * Nothing is written when it throws.
 */
export async function applyPlan(options: ApplyPlanOptions): Promise<ApplyReport> {
  const { client, plan } = options;
  refuseOwnedElsewhere(plan, options.takeOwnership);
  checkSafety(plan, options.settings.limits);
  if (options.verifyFingerprints) {
    refuseRedactedPlan(plan);
    checkPlanTarget(plan.target, options.target ?? client.baseUrl);
    checkPlanOwner(plan.owner, options.owner);
    await verifyFingerprints(client, plan, options.settings);
  }
  await options.confirm?.();
  return applyChanges(client, plan, {
    commit: options.commit,
    onNotice: options.onNotice,
    concurrency: options.settings.concurrency,
    onProgress: options.onProgress,
    signal: options.signal,
  });
}

/** Refuses a saved plan made against another service; two loopback emulators (new port each run) count as one. */
function checkPlanTarget(planTarget: string, target: string): void {
  if (planTarget === target || (isLoopbackUrl(planTarget) && isLoopbackUrl(target))) return;
  throw new PlanTargetError(planTarget, target);
}

/**
 * Re-reads every scope the plan covers; throws StalePlanError naming the scopes that moved,
 * PlanFileError when a change misstates the live state its fingerprint vouches for.
 */
async function verifyFingerprints(client: ServiceClient, plan: Plan, settings: Pick<RunSettings, 'read' | 'concurrency'>): Promise<void> {
  const refs = plan.scopes.map(({ key }) => splitScopeKey(key));
  const live = await readLiveState(client, refs, { listing: settings.read, concurrency: settings.concurrency });
  const moved = plan.scopes
    .filter(({ key, fingerprint: saved }) => {
      const now = live.get(key);
      return now === undefined || fingerprint(now) !== saved;
    })
    .map(({ key }) => key);
  if (moved.length > 0) throw new StalePlanError(moved);
  checkChangesAgainstLive(plan, live);
}

/**
 * With every fingerprint matching, what a change says of the live state must be that state:
 * `before` (what the reviewer saw removed and kept) and the invitation it rewrites.
 */
function checkChangesAgainstLive(plan: Plan, live: ReadonlyMap<ScopeKey, LiveScope>): void {
  for (const change of plan.changes) {
    const problem = liveProblem(change, live.get(change.key)) ?? ownershipLiveProblem(change, live.get(change.key), plan.owner);
    if (problem) throw new PlanFileError(`the saved plan is not valid: ${change.key}: ${problem}; nothing was written`);
  }
}

function liveProblem(change: Plan['changes'][number], now: LiveScope | undefined): string | null {
  const domains = now?.autojoin ? comparableDomains(now.domains) : [];
  const sameBefore = domains.length === change.before.length && domains.every((domain, index) => domain === change.before[index]);
  if (!sameBefore) return 'before is not the live domain list its fingerprint vouches for';
  const invitation = now?.autojoin?.invitationId;
  if (change.autojoin !== undefined && change.autojoin.invitationId !== invitation) return `names invitation ${change.autojoin.invitationId}, live is ${invitation ?? 'none'}`;
  const field = (change.fieldChanges ?? []).find((shown) => canonicalJson(shown.before) !== canonicalJson(liveFieldValue(now, shown.field)));
  return field ? `fieldChanges shows ${field.field} before as ${canonicalJson(field.before)}, live is ${canonicalJson(liveFieldValue(now, field.field))}` : null;
}

export interface ImportOptions {
  settings: Pick<RunSettings, 'read' | 'concurrency'>;
  /** componentId to write: the live invitation does not carry one. */
  componentId?: string;
}

/** One scope's live state as a policy, and its canonical policy document. */
export interface ImportedScope {
  policy: Policy;
  /** Canonical YAML (renderPolicyDocument), what `fmt` would write. */
  text: string;
  /** The live autojoin invitation, null when the scope has none (the file then says `domains: []`). */
  live: LiveScope;
}

/**
 * Reads the live state of `refs` and turns each scope into a canonical policy document,
 * so that `plan` right after writing them shows no changes.
 */
export async function importScopes(client: ServiceClient, refs: ScopeRef[], options: ImportOptions): Promise<ImportedScope[]> {
  const componentId = options.componentId;
  if (!componentId) {
    throw new Error(
      worded`import needs a componentId (the live invitation does not carry one): pass ${hint('componentId', 'ID')} ` +
        'or set defaults.componentId in autojoin-sync.yaml',
    );
  }
  const live = await readLiveState(client, refs, { listing: options.settings.read, concurrency: options.settings.concurrency });
  return refs.map((ref) => {
    const key = scopeKey(ref);
    const state = live.get(key) ?? { key, ...ref, domains: [], autojoin: null };
    const policy: Policy = {
      key,
      scope: ref.scope,
      scopeType: ref.scopeType,
      ...importedFields(state),
      componentId,
      domains: state.domains,
      source: { file: '', line: 1, column: 1 },
      explicitEmpty: state.domains.length === 0,
    };
    return { policy, text: renderPolicyDocument(policy), live: state };
  });
}

/** The name and metadata the service shows, as a policy states them (metadata only when it is a non-empty object). */
function importedFields(live: LiveScope): Pick<Policy, 'scopeName' | 'metadata'> {
  const fields: Pick<Policy, 'scopeName' | 'metadata'> = {};
  if (typeof live.scopeName === 'string' && live.scopeName !== '') fields.scopeName = live.scopeName;
  // The ownership marker is the writes' own, never policy: a file holding it would be an error.
  const metadata = withoutMarker(live.metadata);
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) && Object.keys(metadata).length > 0) {
    fields.metadata = metadata as Record<string, unknown>;
  }
  return fields;
}

function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
