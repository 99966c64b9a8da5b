/**
 * Whether a saved plan can be trusted (`apply --plan FILE`, `show`), decided here, in this order:
 *  1. pin: the file is read safely (src/files.ts) and its sha256 is the one `plan --out` printed,
 *     when `--plan-sha256` gives it;
 *  2. schema: JSON, this version's formatVersion, schemas/plan.schema.json (src/plan/saved.ts);
 *  3. consistency: every check of src/plan/checks.ts, the rule set (keys, recomputed
 *     added/removed/summary, domain checks, field changes), then the document decoded (encode.ts);
 *  4. staleness, at apply against the service: not marked redacted, made for this target and
 *     this owner, every scope's fingerprint that of a fresh read, and what each change says of
 *     the live state that state.
 * Steps 1-3 are `readSavedPlan`, step 4 `checkSavedPlanCurrent` (applyPlan runs it before any
 * write). Any failure throws, naming the first problem; nothing is written.
 */
import { readRegularFile, recordedPathProblem } from '../files.js';
import { cutText, shownLive } from '../redact.js';
import { hint, worded } from '../hint.js';
import { comparableDomains, decodePlan, sameList, fingerprint, parsePlanSchema, planDigest, PlanFileError, refuseRedactedPlan, type Plan } from '../plan/index.js';
import { consistencyProblem } from '../plan/checks.js';
import { canonicalJson } from '../plan/fields.js';
import { readLiveState } from '../service/state.js';
import { splitScopeKey, type ScopeKey } from '../scope.js';
import type { ServiceClient } from '../service/client.js';
import type { LiveScope } from '../service/types.js';
import type { FieldChange } from '../plan/types.js';
import type { RunSettings } from '../run/settings.js';
import { PlanTargetError, StalePlanError } from '../plan/refusals.js';
import { checkSavedHistory, type HistoryPlace } from '../history/behind.js';
import type { ScopeGlob } from '../policy/globs.js';
import { checkPlanOwner, liveFieldValue, ownershipLiveProblem } from './ownership-refusal.js';
import { withClaimedKeys } from '../plan/marker-keys.js';

/** Largest saved plan read: 100,000 changed scopes fit several times over. */
export const MAX_PLAN_BYTES = 256 * 1024 * 1024;

/**
 * Steps 1-3: reads, pins and checks a saved plan.
 * @param sha256 the digest `plan --out` printed; when given, a file with another digest is refused
 * @throws PlanFileError (or FileAccessError) naming the file and the first problem; nothing is written
 */
export async function readSavedPlan(file: string, sha256?: string): Promise<Plan> {
  const bytes = await readRegularFile(file, { maxBytes: MAX_PLAN_BYTES, what: 'saved plan' });
  if (sha256 !== undefined) checkPin(file, bytes, sha256);
  const document = parsePlanSchema(utf8(file, bytes), file);
  // Stryker disable next-line OptionalChaining: the schema (step 2) requires `context`
  refuseRecordedPath(document.context?.projectFile?.path, file);
  const problem = consistencyProblem(document, file);
  if (problem) throw new PlanFileError(problem);
  return decodePlan(document);
}

/**
 * A saved plan's recorded project file never leaves the repository: refused before anything
 * reads it (`../`, an absolute path such as `/dev/zero`); what is read at a path that passes is
 * read as any project file is (src/run/context.ts: a regular file inside the repository, size-capped).
 */
function refuseRecordedPath(path: string | undefined, file: string): void {
  if (path === undefined) return;
  const problem = recordedPathProblem(path);
  if (problem === null) return;
  throw new PlanFileError(`${file} is not a valid plan: /context/projectFile/path ${JSON.stringify(cutText(path, 200))}: ${problem}, so it is not a file inside the repository; nothing was read`);
}

function checkPin(file: string, bytes: Uint8Array, expected: string): void {
  const pinned = expected.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/u.test(pinned)) throw new PlanFileError(worded`${hint('planSha256')} needs the 64 hex characters \`plan --out\` printed`);
  const actual = planDigest(bytes);
  if (actual !== pinned) {
    throw new PlanFileError(`${file} has sha256 ${actual}, not the pinned ${pinned}: it is not the plan that was reviewed; nothing was written`);
  }
}

function utf8(file: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new PlanFileError(`${file} is not UTF-8 text, so not a saved plan`);
  }
}

/** Where and for whom this run applies, and how it reads live state. */
export interface ApplyContext {
  /** This run's target, as plans record it. */
  target: string;
  /** This repository's owner; undefined: not checked. */
  owner?: string;
  read: RunSettings['read'];
  /** Where the scopes are placed in history again (src/history/behind.ts), and the scopes --allow-behind names. */
  history?: { where: HistoryPlace; allowBehind: readonly ScopeGlob[] };
}

/**
 * Step 4: refuses a saved plan that no longer holds: marked redacted (PlanFileError), made against
 * another service (PlanTargetError) or for another owner (PlanFileError), a scope whose live state
 * moved since (StalePlanError), or a change that misstates the live state its fingerprint vouches
 * for (PlanFileError).
 */
export async function checkSavedPlanCurrent(client: ServiceClient, plan: Plan, context: ApplyContext): Promise<ReadonlyMap<ScopeKey, LiveScope>> {
  refuseRedactedPlan(plan);
  checkPlanTarget(plan.target, context.target);
  checkPlanOwner(plan.owner, context.owner);
  const live = await readLiveState(client, plan.scopes.map(({ key }) => splitScopeKey(key)), { mode: context.read });
  const moved = plan.scopes.filter(({ key, fingerprint: saved }) => {
    const now = live.get(key);
    // Stryker disable next-line ConditionalExpression: readLiveState returns a state for every scope asked, or throws
    return now === undefined || fingerprint(now) !== saved;
  });
  if (moved.length > 0) throw new StalePlanError(moved.map(({ key }) => key));
  checkChangesAgainstLive(plan, live);
  if (context.history) await checkSavedHistory(plan, live, context.history.where, context.history.allowBehind);
  return live;
}

/**
 * Refuses a saved plan made against another service: targets are compared after normalization
 * (scheme, host, port and path, `/api/v1` not doubled), loopback included: two emulators on two
 * ports are two services.
 */
export function checkPlanTarget(planTarget: string, target: string): void {
  if (normalTarget(planTarget) === normalTarget(target)) return;
  throw new PlanTargetError(planTarget, target);
}

/** `embedded` as it is; a URL as `scheme://host[:port]/path` (default port dropped, no trailing slash, no final `/api/v1`). */
export function normalTarget(target: string): string {
  let url: URL;
  try {
    // Stryker disable next-line MethodExpression: the URL parser strips leading and trailing spaces itself
    url = new URL(target.trim());
  } catch {
    return target.trim();
  }
  const path = url.pathname.replace(/\/+$/u, '').replace(/\/api\/v1$/u, '').replace(/\/+$/u, '');
  return `${url.protocol}//${url.host.toLowerCase()}${path}`;
}

/**
 * With every fingerprint matching, what a change says of the live state must be that state:
 * `before` (what the reviewer saw removed and kept) and the invitation it rewrites.
 */
function checkChangesAgainstLive(plan: Plan, live: ReadonlyMap<ScopeKey, LiveScope>): void {
  for (const change of plan.changes) {
    // A marker without `autojoin-sync.keys`: the plan decided them from git; its change says which (marker-keys.ts).
    const now = withClaimedKeys(live.get(change.key), change);
    const problem = liveProblem(change, now) ?? ownershipLiveProblem(change, now, plan.owner);
    if (problem) throw new PlanFileError(`the saved plan is not valid: ${change.key}: ${problem}; nothing was written`);
  }
}

function liveProblem(change: Plan['changes'][number], now: LiveScope | undefined): string | null {
  // Stryker disable next-line OptionalChaining: every change's scope is one of the plan's scopes (checks.ts), each read live or refused as stale above
  const domains = now?.autojoin ? comparableDomains(now.domains) : [];
  const sameBefore = sameList(domains, change.before);
  if (!sameBefore) return 'before is not the live domain list its fingerprint vouches for';
  // Stryker disable next-line OptionalChaining: as above, `now` is always read
  const invitation = now?.autojoin?.invitationId;
  if (change.autojoin !== undefined && change.autojoin.invitationId !== invitation) return `names invitation ${shownLive(change.autojoin.invitationId)}, live is ${shownLive(invitation ?? 'none')}`;
  const liveValue = (name: FieldChange['field']): unknown => liveFieldValue(now, name, change.metadata);
  // A componentId the service does not show was taken from the state last applied: nothing live to hold it to.
  // Stryker disable next-line OptionalChaining: as above, `now` is always read
  const checkable = (change.fieldChanges ?? []).filter((shown) => shown.field !== 'componentId' || now?.componentId !== undefined);
  const field = checkable.find((shown) => canonicalJson(shown.before) !== canonicalJson(liveValue(shown.field)));
  return field ? `fieldChanges shows ${field.field} before as ${shownLive(canonicalJson(field.before))}, live is ${shownLive(canonicalJson(liveValue(field.field)))}` : null;
}
