/**
 * The verdict (design.md, "One verdict"): every refusal of a run as data, decided once by one pure
 * function of the plan and its context, and used by every path that judges a plan: `plan` shows
 * them as cautions ("apply would refuse this plan"), `merge-plans` and `show` likewise, `apply` in
 * every form refuses on them, from both front ends. A refusal is data (its kind, the check, the
 * scopes, its numbers, the settings that change it as {@link Hint}s, the words, the exit code);
 * the front ends only map it to their text, JSON, markdown, job summary, deployment status and exit
 * code (src/cli/json-result.ts, src/action/refusal.ts).
 *
 * What only the live state at apply can tell (a saved plan gone stale, an entry expired since, a
 * saved plan's scopes placed behind again) is refused by apply when it reads it; those errors map
 * onto the same data here ({@link refusalsOfError}), so one mapping covers every refusal.
 */
import { findViolations, PrunePercentError, RemovalPercentError, TooManyRemovalsError, UnsafePlanError } from '../plan/safety.js';
import { OnlyExpiredError, StalePlanError, WriteCheckError } from '../plan/refusals.js';
import { domainCensus, writeProblems } from '../plan/write-checks.js';
import { unknownOwnershipOf } from '../plan/ownership.js';
import type { BehindScope, Plan, SafetyLimits } from '../plan/types.js';
import type { Rule } from '../policy/types.js';
import type { ScopeGlob } from '../policy/globs.js';
import { OwnedElsewhereError, UnknownOwnerError, ownershipConflicts } from '../reconcile/ownership-refusal.js';
import { BehindCheckoutError } from '../history/behind.js';
import { ExitCode, type ExitCodeValue } from '../output/exit-codes.js';
import type { Hint } from '../hint.js';
import type { ScopeKey } from '../scope.js';

/** What refused: a safety limit, another owner's marker, an owner that cannot be read, a checkout behind a marker, a write that fails the checks of a policy file, a saved plan gone stale. */
export type RefusalKind = 'safety-limit' | 'ownership' | 'unknown-owner' | 'behind' | 'only-expired' | 'write-check' | 'stale';

/** One refusal, as data. */
export interface VerdictRefusal {
  kind: RefusalKind;
  /**
   * The check by name: the limit (`max-removals`, `max-removal-percent`, `allow-empty`), the write
   * check's code (`public-suffix`, `rule-deny`, `rule-max-scopes`, …), or the kind's own name.
   */
  check: string;
  /** The scopes it names. */
  scopes: readonly ScopeKey[];
  /** The plan's figure (domains removed, percent, scopes); for a write check, the problems of this check. */
  count: number;
  /** What the check allows (0 where it allows none). */
  allowed: number;
  /** The settings (flags, inputs) that change it, with the values that would let it through; [] when none does. */
  hints: readonly Hint[];
  /** The refusal in the core's words (hints worded for the run's front end). */
  message: string;
  /** The exit code it ends an apply with: 3 for a safety limit, 4 for a stale plan, else 1. */
  exitCode: ExitCodeValue;
  /** The figures behind the count, per scope, where the check has them (the job summary's rows name them). */
  detail?: RefusalDetail;
  /** The error apply throws for it (one per check; the safety limits share the first's). Not rendered. */
  readonly error: Error;
}

/** The figures behind a refusal's count, each where its check has it. */
export interface RefusalDetail {
  /** max-removal-percent over a scope's domains: each scope over it, with its domains removed and its total. */
  removals?: readonly { key: ScopeKey; removed: number; total: number }[];
  /** max-removal-percent over the active scopes: how many deleted policy files clear, of how many with active autojoin. */
  pruned?: { cleared: number; active: number };
  /** ownership: the owner each scope's marker names. */
  owners?: readonly { key: ScopeKey; owner: string }[];
  /** behind: the commit each scope's marker names, and whether this shallow clone cannot find it. */
  commits?: readonly BehindScope[];
}

/** A run's verdict: every refusal in the order apply checks them, and the exit code of the first (0 when none). */
export interface Verdict {
  refusals: readonly VerdictRefusal[];
  exitCode: ExitCodeValue;
}

/** What a verdict is decided under: the run context's limits and rules, today, and what the request lets through. */
export interface VerdictContext {
  limits: SafetyLimits;
  rules?: readonly Rule[] | undefined;
  /** The UTC date of the writes (the run context's today). */
  today: string;
  /** --take-ownership / input take-ownership, parsed. */
  takeOwnership?: ReadonlySet<ScopeKey> | undefined;
  /** --allow-behind / input allow-behind, parsed. */
  allowBehind?: readonly ScopeGlob[] | undefined;
  /**
   * True for a saved plan being applied: its `behind` is a claim placed again against the live
   * state at apply, and a plan without a census is counted from that read too.
   */
  saved?: boolean;
}

/**
 * The verdict of applying `plan`: every refusal apply would make before reading anything again,
 * in its order (ownership → behind → safety limits → write checks). Pure.
 * @param whole the plan the run-wide checks are decided on (a merged plan, when `plan` is one shard of it)
 */
export function verdictOf(plan: Plan, context: VerdictContext, whole: Plan = plan): Verdict {
  const refusals: VerdictRefusal[] = [];
  const owned = ownershipConflicts(plan, context.takeOwnership);
  if (owned.length > 0) refusals.push(...refusalsOf(new OwnedElsewhereError(owned, plan.owner)));
  // Unknown ownership over the whole, from what each shard part recorded per scope (an unsharded plan refused it as it read).
  const unknown = unknownOwnershipOf(whole.changes, whole.scopes).filter((key) => context.takeOwnership?.has(key) !== true);
  if (unknown.length > 0) refusals.push(...refusalsOf(new UnknownOwnerError(unknown)));
  if (!context.saved) {
    const allowed = context.allowBehind ?? [];
    const behind = (plan.behind ?? []).filter((scope) => scope.missing === true || !allowed.some((glob) => glob.test(scope.key)));
    if (behind.length > 0) refusals.push(...refusalsOf(new BehindCheckoutError(behind)));
  }
  // apply --only-expired: the scopes it cannot write as they are live, by name (src/plan/only-expired.ts).
  if ((plan.onlyExpiredRefused ?? []).length > 0) refusals.push(...refusalsOf(new OnlyExpiredError(plan.onlyExpiredRefused ?? [])));
  const violations = findViolations(whole.changes, context.limits, whole.scopes);
  if (violations.length > 0) refusals.push(...refusalsOf(combined(violations)));
  // The write checks over the whole as well: a part of a merged plan is refused for what the unsharded apply refuses.
  const problems = writeProblems(whole.changes, context.rules, context.today, whole.census && domainCensus(whole.census));
  if (problems.length > 0) refusals.push(...refusalsOf(new WriteCheckError(problems)));
  return { refusals, exitCode: refusals[0]?.exitCode ?? ExitCode.ok };
}

function refusalsOf(error: Error): VerdictRefusal[] {
  return refusalsOfError(error) ?? [];
}

/** @throws the error of the verdict's first refusal (the safety limits as one error naming each): nothing is written. */
export function refuseOn(verdict: Verdict): void {
  const first = verdict.refusals[0];
  if (first) throw first.error;
}

/** The safety limits as checkSafety throws them: the first error, naming the others. */
function combined(violations: UnsafePlanError[]): UnsafePlanError {
  const [first, ...rest] = violations as [UnsafePlanError, ...UnsafePlanError[]];
  first.violations = violations;
  if (rest.length > 0) first.message += ` — also: ${rest.map((violation) => violation.message).join(' — also: ')}`;
  return first;
}

/** @returns the refusals an error stands for (or the cause of one that wraps it); null for any other failure. */
export function refusalsOfError(error: unknown): VerdictRefusal[] | null {
  const inner = refusalError(error);
  if (inner instanceof UnsafePlanError) return inner.violations.map((violation) => limitRefusal(violation, inner));
  if (inner instanceof StalePlanError) return [{ kind: 'stale', check: 'stale', scopes: inner.moved, count: inner.moved.length, allowed: 0, hints: [], message: inner.message, exitCode: ExitCode.stalePlan, error: inner }];
  if (inner instanceof OwnedElsewhereError) {
    const scopes = inner.scopes.map((scope) => scope.key);
    const detail = { owners: inner.scopes.map(({ key, owner }) => ({ key, owner })) };
    return [{ kind: 'ownership', check: 'ownership', scopes, count: scopes.length, allowed: 0, hints: inner.hints, message: inner.message, exitCode: ExitCode.error, error: inner, detail }];
  }
  if (inner instanceof UnknownOwnerError) {
    return [{ kind: 'unknown-owner', check: 'unknown-owner', scopes: inner.scopes, count: inner.scopes.length, allowed: 0, hints: inner.hints, message: inner.message, exitCode: ExitCode.error, error: inner }];
  }
  if (inner instanceof BehindCheckoutError) {
    const scopes = inner.scopes.map((scope) => scope.key);
    const shallow = inner.scopes.some((scope) => scope.missing === true);
    const hints: Hint[] = shallow ? [] : [{ setting: 'allowBehind', value: scopes.slice(0, 3) }];
    const detail = { commits: inner.scopes };
    return [{ kind: 'behind', check: shallow ? 'behind-shallow' : 'behind', scopes, count: scopes.length, allowed: 0, hints, message: inner.message, exitCode: ExitCode.error, error: inner, detail }];
  }
  if (inner instanceof WriteCheckError) return writeRefusals(inner);
  if (inner instanceof OnlyExpiredError) {
    const scopes = inner.scopes.map((scope) => scope.key);
    return [{ kind: 'only-expired', check: 'only-expired', scopes, count: scopes.length, allowed: 0, hints: [], message: inner.message, exitCode: ExitCode.error, error: inner }];
  }
  return null;
}

/** The error a refusal was thrown as: a RunError's cause, else the error itself. */
function refusalError(error: unknown): unknown {
  if (error instanceof UnsafePlanError || error instanceof StalePlanError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return typeof cause === 'object' && cause !== null ? cause : error;
}

function limitRefusal(violation: UnsafePlanError, thrown: UnsafePlanError): VerdictRefusal {
  const message = violation.message.split(' — also: ')[0] ?? violation.message;
  const base = { kind: 'safety-limit' as const, scopes: violation.scopes, hints: violation.hints, message, exitCode: ExitCode.unsafe, error: thrown };
  if (violation instanceof TooManyRemovalsError) return { ...base, check: 'max-removals', count: violation.removals, allowed: violation.limit };
  if (violation instanceof RemovalPercentError) {
    const removals = violation.removals.map(({ key, removed, total }) => ({ key, removed, total }));
    return { ...base, check: 'max-removal-percent', count: Math.max(...violation.removals.map((r) => round(r.percent))), allowed: violation.limit, detail: { removals } };
  }
  if (violation instanceof PrunePercentError) {
    const pruned = { cleared: violation.cleared.length, active: violation.active };
    return { ...base, check: 'max-removal-percent', count: round((violation.cleared.length / violation.active) * 100), allowed: violation.limit, detail: { pruned } };
  }
  return { ...base, check: 'allow-empty', count: violation.scopes.length, allowed: 0 };
}

/** One refusal per write check, in the order the problems were found; each names its scopes. */
function writeRefusals(error: WriteCheckError): VerdictRefusal[] {
  const byCheck = new Map<string, { scopes: ScopeKey[]; messages: string[] }>();
  for (const problem of error.problems) {
    const entry = byCheck.get(problem.check) ?? { scopes: [], messages: [] };
    if (!entry.scopes.includes(problem.key)) entry.scopes.push(problem.key);
    entry.messages.push(`${problem.key}: ${problem.message}`);
    byCheck.set(problem.check, entry);
  }
  return [...byCheck].map(([check, entry]) => ({
    kind: 'write-check',
    check,
    scopes: entry.scopes,
    count: entry.messages.length,
    allowed: 0,
    hints: [],
    message: `${entry.messages.join('; ')} (${check}): what a run writes must pass the same checks as a policy file; set \`drift: revert\` on ${entry.scopes.length === 1 ? 'that scope' : 'those scopes'} to write the files' state instead`,
    exitCode: ExitCode.error,
    error,
  }));
}

function round(percent: number): number {
  return Math.round(percent * 10) / 10;
}
