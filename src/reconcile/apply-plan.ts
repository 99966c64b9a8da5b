/**
 * `applyPlan`, as a list of steps, once the verdict (src/commands/verdict.ts) let the plan through:
 * for a saved plan, whether it still holds against the service (saved-plan.ts) → the
 * confirmation → the writes (src/apply/apply-changes.ts, through the one bounded pool).
 */
import type { Plan } from '../plan/index.js';
import { applyChanges, type ApplyProgress } from '../apply/apply-changes.js';
import type { ScopeKey } from '../scope.js';
import type { LiveScope } from '../service/types.js';
import type { ServiceClient } from '../service/client.js';
import type { RunSettings } from '../run/settings.js';
import type { ApplyReport } from '../apply/types.js';
import { refuseSavedTakeOver } from './ownership-refusal.js';
import { refuseExpiredSincePlan, type PolicyPlace } from './expired-since-plan.js';
import type { HistoryPlace } from '../history/behind.js';
import type { ScopeGlob } from '../policy/globs.js';
import { checkSavedPlanCurrent } from './saved-plan.js';
import { WriteCheckError } from '../plan/refusals.js';
import { fingerprint } from '../plan/live-fingerprint.js';
import { readLiveState } from '../service/state.js';
import { splitScopeKey } from '../scope.js';
import type { CensusEntry } from '../plan/types.js';
import { censusEntry, countLive, domainCensus, writeProblems, type DomainCensus } from '../plan/write-checks.js';
import type { Rule } from '../policy/types.js';

export interface ApplyPlanOptions {
  client: ServiceClient;
  plan: Plan;
  /** When `plan` is one shard's part of a merged plan: the whole, on which the safety limits are decided. */
  wholePlan?: Plan;
  settings: Pick<RunSettings, 'limits' | 'read' | 'today'>;
  /** Where this run goes, as plans record it (default: the client's base URL); checked against a saved plan's. */
  target?: string;
  /** For a saved plan: refuse (StalePlanError) when any scope's live state moved since. */
  verifyFingerprints?: boolean;
  /** For a saved plan: the policy files of this checkout, read for entries that expired since the plan's date (stale, exit 4). */
  policyPlace?: PolicyPlace;
  /** The project file's rules: every list written passes them (error level) and the domain checks, or nothing is written. */
  rules?: readonly Rule[];
  /** Scopes this run may take over from another owner (--take-ownership TYPE/ID). */
  takeOwnership?: ReadonlySet<ScopeKey>;
  /** Scopes this run may write although their marker's commit is not in this checkout (--allow-behind: src/history/behind.ts). */
  allowBehind?: readonly ScopeGlob[];
  /** The repository and HEAD a saved plan's scopes are placed in again (src/history/behind.ts); without HEAD nothing is checked. */
  history?: HistoryPlace;
  /** This repository's owner (the project file's); a saved plan made for another owner is refused. */
  owner?: string;
  /** The commit HEAD points to, recorded in each write's marker (`autojoin-sync.commit`); none outside git. */
  commit?: string;
  /** The UTC date of the writes, kept in each marker (`autojoin-sync.applied`); default the run context's today. */
  applied?: string;
  /** Notices for the user, e.g. that the service keeps no ownership marker. */
  onNotice?: (message: string) => void;
  /** Called after every check and before the first write; throw to write nothing (e.g. the user said no). */
  confirm?: () => Promise<void>;
  onProgress?: ApplyProgress;
  /** When aborted, changes not yet started are reported as skipped. */
  signal?: AbortSignal;
}

/**
 * Applies a plan whose verdict allowed it (src/commands/verdict.ts): for a saved plan, the
 * staleness checks (throws StalePlanError, PlanTargetError, PlanFileError), then the
 * confirmation, then the POSTs. Nothing is written when it throws.
 */
export async function applyPlan(options: ApplyPlanOptions): Promise<ApplyReport> {
  const { client, plan } = options;
  // What the plan itself tells (ownership, behind, the safety limits, the write checks) was decided by the verdict
  // (src/commands/verdict.ts) before this is called; what follows is what only the live state at apply can tell.
  if (options.verifyFingerprints) refuseSavedTakeOver(plan, options.takeOwnership);
  const day = options.applied ?? options.settings.today;
  if (options.verifyFingerprints) {
    const history = { where: options.history ?? { base: '.' }, allowBehind: options.allowBehind ?? [] };
    const live = await checkSavedPlanCurrent(client, plan, { target: options.target ?? client.baseUrl, owner: options.owner, read: options.settings.read, history });
    const whole = options.wholePlan ?? plan;
    // maxScopesPerDomain counted again over the live state: the plan's census (every shard's, the files --changed-since left out) read again, or the scopes just read.
    const census = whole.census ? await liveCensus(client, whole.census, live, options.settings.read) : censusOf(live);
    const counted = census === null ? [] : writeProblems(whole.census ? whole.changes : plan.changes, options.rules, day, census).filter((problem) => problem.check === 'rule-max-scopes');
    if (counted.length > 0) throw new WriteCheckError(counted);
    if (options.policyPlace) await refuseExpiredSincePlan(plan, options.policyPlace, day);
  }
  await options.confirm?.();
  if (plan.changes.length === 0) return { applied: [], failed: [], skipped: [] };
  return applyChanges(client, plan, { commit: options.commit, applied: day, onNotice: options.onNotice, onProgress: options.onProgress, signal: options.signal });
}

/**
 * The scopes of a saved plan's census that its own check did not read (another shard's, a file
 * --changed-since left out) are read again, each held to its fingerprint.
 * @returns null when none moved (the verdict counted this census already), else the live census to count again
 */
async function liveCensus(client: ServiceClient, census: readonly CensusEntry[], read: ReadonlyMap<ScopeKey, LiveScope>, mode: RunSettings['read']): Promise<DomainCensus | null> {
  const unread = census.filter((entry) => !read.has(entry.key));
  const again = unread.length === 0 ? new Map<ScopeKey, LiveScope>() : await readLiveState(client, unread.map(({ key }) => splitScopeKey(key)), { mode });
  const now = (key: ScopeKey): LiveScope | undefined => read.get(key) ?? again.get(key);
  if (census.every(({ key, fingerprint: saved }) => fingerprint(now(key)) === saved)) return null;
  return domainCensus(census.map(({ key }) => censusEntry(key, now(key))));
}

/** @returns the live domains of the scopes a saved plan's check read, as the plan builder counts them. */
function censusOf(live: ReadonlyMap<ScopeKey, LiveScope>): DomainCensus {
  const census = new Map<string, ScopeKey[]>();
  for (const [key, scope] of live) if (scope.autojoin) countLive(census, key, scope.domains);
  return census;
}
