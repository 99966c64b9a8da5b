/**
 * What a run tells its notification targets, as plain data, before any format: the event the
 * contract selects from the run's outcome (design.md, "Notifications"), and its contents. Pure.
 *
 * - `applied`: an apply wrote at least one scope (a shard job says which shard).
 * - `refused`: a refusal of the verdict (a safety limit, ownership, unknown ownership, behind,
 *   stale, a pin or target mismatch, a write check): nothing was written.
 * - `failed`: any other exit 1 of apply once its context was resolved; a partial apply is one
 *   `failed` listing what was written and what failed.
 * - `drift`: `plan --notify` found changes made outside this repository or pending changes,
 *   counted apart.
 */
import type { ApplyReport } from '../apply/types.js';
import { BehindCheckoutError } from '../history/behind.js';
import { wordHint, type Hint } from '../hint.js';
import { domainDelta } from '../plan/derived.js';
import { PlanTargetError, StalePlanError, WriteCheckError } from '../plan/refusals.js';
import { UnsafePlanError } from '../plan/safety.js';
import { PlanFileError } from '../plan/saved.js';
import type { Change, ChangeKind, Plan } from '../plan/types.js';
import type { NotifyEventName } from '../policy/types.js';
import { OwnedElsewhereError, UnknownOwnerError } from '../reconcile/ownership-refusal.js';
import type { ScopeKey } from '../scope.js';

/** Most domains listed each way (added, removed) per scope; the rest are counted. */
export const MAX_DOMAINS_EACH_WAY = 20;

/** The run's outcome once it is final, as the command layer knows it: plain data. */
export interface RunOutcome {
  command: 'plan' | 'apply';
  /** The plan shown or applied (for a refused or failed apply, as far as it was made). */
  plan?: Pick<Plan, 'changes' | 'drift' | 'shard' | 'target'>;
  /** apply: what it wrote, failed and skipped. */
  report?: ApplyReport;
  /** What ended the run, when it did not end as it should. */
  error?: unknown;
  /** The exit code the run has before any delivery. */
  exitCode: number;
  /** apply --shard K/N, when the run applied one shard of a merged plan. */
  shard?: string;
}

/** Where the run happened: what a message says beside the outcome (never a credential). */
export interface RunFacts {
  owner: string;
  /** The service's host (`invitations.example.com`), `embedded`, never a path or credential. */
  service: string;
  repository?: string;
  commit?: string;
  /** The CI run's URL, when known. */
  runUrl?: string;
}

/** One scope in a message. */
export interface MessageScope {
  key: ScopeKey;
  kind: ChangeKind | 'drift';
  /** Which side moved it: this repository, outside it, or both. */
  origin: 'repository' | 'outside' | 'both';
  /** applied / failed / skipped by the apply; pending: in a plan (drift) or a refused apply. */
  outcome: 'applied' | 'failed' | 'skipped' | 'pending';
  /** At most {@link MAX_DOMAINS_EACH_WAY}; `addedMore`/`removedMore` count the rest. */
  added: string[];
  removed: string[];
  addedMore: number;
  removedMore: number;
  /** failed or skipped: why (one line from the apply's report). */
  reason?: string;
}

/** What a run tells every target (each format renders it within its budget). */
export interface NotifyMessage {
  version: 1;
  event: NotifyEventName;
  command: 'plan' | 'apply';
  exitCode: number;
  owner: string;
  service: string;
  repository?: string;
  commit?: string;
  runUrl?: string;
  shard?: string;
  counts: {
    scopes: number;
    added: number;
    removed: number;
    applied?: number;
    failed?: number;
    skipped?: number;
    /** drift: scopes changed outside this repository (reverted by the next apply or kept). */
    outside?: number;
    /** drift: this repository's changes not applied yet. */
    pending?: number;
  };
  scopes: MessageScope[];
  /** refused: which check, its message, and the flag or input that changes it. */
  refusal?: { check: string; reason: string; override?: string };
  /** failed: the error's message (when the run stopped on one rather than on failed scopes). */
  error?: string;
}

/**
 * The event of an outcome.
 * @param notifyPlan `plan --notify` (the scheduled drift job): without it a plan sends nothing
 * @returns the event, or null when the run sends nothing
 */
export function selectEvent(outcome: RunOutcome, notifyPlan = false): NotifyEventName | null {
  if (outcome.command === 'plan') {
    if (!notifyPlan || outcome.error !== undefined || !outcome.plan) return null;
    return outcome.plan.changes.length > 0 || outcome.plan.drift.length > 0 ? 'drift' : null;
  }
  if (outcome.error !== undefined) return refusalCheck(outcome.error) === null ? 'failed' : 'refused';
  const report = outcome.report;
  if (!report) return outcome.exitCode === 1 ? 'failed' : null;
  if (report.failed.length > 0 || report.skipped.length > 0 || outcome.exitCode === 1) return 'failed';
  return report.applied.length > 0 ? 'applied' : null;
}

/** @returns the message of `event` for `outcome` */
export function buildMessage(event: NotifyEventName, outcome: RunOutcome, facts: RunFacts): NotifyMessage {
  const changes = outcome.plan?.changes ?? [];
  const byKey = new Map(changes.map((change) => [change.key, change]));
  const scopes = event === 'drift' ? driftScopes(outcome) : event === 'refused' ? changes.map((change) => changeScope(change, 'pending')) : applyScopes(outcome.report, byKey, changes);
  const shard = outcome.shard ?? outcome.plan?.shard;
  const message: NotifyMessage = {
    version: 1,
    event,
    command: outcome.command,
    exitCode: outcome.exitCode,
    owner: facts.owner,
    service: facts.service,
    ...(facts.repository ? { repository: facts.repository } : {}),
    ...(facts.commit ? { commit: facts.commit } : {}),
    ...(facts.runUrl ? { runUrl: facts.runUrl } : {}),
    ...(shard ? { shard } : {}),
    counts: countsOf(event, scopes, outcome),
    scopes,
  };
  if (event === 'refused') {
    const check = refusalCheck(outcome.error) ?? 'refused';
    const override = overrideOf(outcome.error);
    message.refusal = { check, reason: messageOf(outcome.error), ...(override ? { override } : {}) };
  }
  if (event === 'failed' && outcome.error !== undefined) message.error = messageOf(outcome.error);
  return message;
}

function countsOf(event: NotifyEventName, scopes: readonly MessageScope[], outcome: RunOutcome): NotifyMessage['counts'] {
  const counts: NotifyMessage['counts'] = {
    scopes: scopes.length,
    added: scopes.reduce((sum, scope) => sum + scope.added.length + scope.addedMore, 0),
    removed: scopes.reduce((sum, scope) => sum + scope.removed.length + scope.removedMore, 0),
  };
  if (event === 'drift') {
    counts.outside = scopes.filter((scope) => scope.origin !== 'repository').length;
    counts.pending = scopes.filter((scope) => scope.origin === 'repository').length;
  } else if (outcome.report) {
    counts.applied = outcome.report.applied.length;
    counts.failed = outcome.report.failed.length;
    counts.skipped = outcome.report.skipped.length;
  }
  return counts;
}

/** An apply's scopes: what it wrote, what failed, what it skipped, in that order. */
function applyScopes(report: ApplyReport | undefined, byKey: ReadonlyMap<ScopeKey, Change>, changes: readonly Change[]): MessageScope[] {
  if (!report) return changes.map((change) => changeScope(change, 'pending'));
  const scope = (key: ScopeKey, kind: ChangeKind, outcome: MessageScope['outcome'], reason?: string): MessageScope => {
    const change = byKey.get(key);
    const base = change ? changeScope(change, outcome) : { key, kind, origin: 'repository' as const, outcome, ...limited([], []) };
    return reason === undefined ? base : { ...base, reason };
  };
  return [
    ...report.applied.map((one) => scope(one.key, one.kind, 'applied')),
    ...report.failed.map((one) => scope(one.key, one.kind, 'failed', one.reason)),
    ...report.skipped.map((one) => scope(one.key, byKey.get(one.key)?.kind ?? 'update', 'skipped', one.reason)),
  ];
}

/** A plan's drift: each change (outside: what was changed there; this repository's: what apply would write), then the drift kept. */
function driftScopes(outcome: RunOutcome): MessageScope[] {
  const plan = outcome.plan;
  if (!plan) return [];
  const changed = plan.changes.map((change): MessageScope => {
    if (change.origin === undefined || change.outside === undefined) return changeScope(change, 'pending');
    return { key: change.key, kind: change.kind, origin: originOf(change.origin), outcome: 'pending', ...limited(change.outside.added, change.outside.removed) };
  });
  const kept = plan.drift.map((drift): MessageScope => ({ key: drift.key, kind: 'drift', origin: originOf(drift.origin), outcome: 'pending', ...limited(drift.outside.added, drift.outside.removed) }));
  return [...changed, ...kept];
}

function changeScope(change: Change, outcome: MessageScope['outcome']): MessageScope {
  const { added, removed } = domainDelta(change);
  return { key: change.key, kind: change.kind, origin: originOf(change.origin), outcome, ...limited(added, removed) };
}

function originOf(origin: Change['origin']): MessageScope['origin'] {
  return origin === 'drift' ? 'outside' : origin === 'conflict' ? 'both' : 'repository';
}

function limited(added: readonly string[], removed: readonly string[]): Pick<MessageScope, 'added' | 'removed' | 'addedMore' | 'removedMore'> {
  return {
    added: added.slice(0, MAX_DOMAINS_EACH_WAY),
    removed: removed.slice(0, MAX_DOMAINS_EACH_WAY),
    addedMore: Math.max(0, added.length - MAX_DOMAINS_EACH_WAY),
    removedMore: Math.max(0, removed.length - MAX_DOMAINS_EACH_WAY),
  };
}

/** A project of a run of several, refused because another project was: nothing was written for it either. */
class AnotherProjectRefused extends Error {
  constructor(readonly exitCode: number) {
    super('another project of this run was refused, so nothing was written for this one either');
  }
}

/** The refusal a project hears when another project of its run was refused (never the other's details). */
export function anotherProjectRefused(exitCode: number): Error {
  return new AnotherProjectRefused(exitCode);
}

/**
 * Which check refused the run, or null when the error is no refusal.
 * The error may be a RunError whose cause is the refusal.
 */
export function refusalCheck(error: unknown): string | null {
  if (error instanceof AnotherProjectRefused) return 'another project refused';
  for (const one of [error, (error as { cause?: unknown } | null)?.cause]) {
    if (one instanceof UnsafePlanError) return 'safety limit';
    if (one instanceof StalePlanError) return 'stale saved plan';
    if (one instanceof PlanTargetError) return 'saved plan target';
    if (one instanceof OwnedElsewhereError) return 'ownership';
    if (one instanceof UnknownOwnerError) return 'unknown ownership';
    if (one instanceof BehindCheckoutError) return 'behind checkout';
    if (one instanceof WriteCheckError) return 'write check';
    if (one instanceof PlanFileError && /\bpinned\b|sha256/u.test(one.message)) return 'saved plan pin';
  }
  const code = (error as { exitCode?: unknown } | null)?.exitCode;
  return code === 3 ? 'safety limit' : code === 4 ? 'stale saved plan' : null;
}

/** The flag or input that lets a refused run through, in the front end's words (src/hint.ts). */
function overrideOf(error: unknown): string | undefined {
  for (const one of [error, (error as { cause?: unknown } | null)?.cause]) {
    const violations = one instanceof UnsafePlanError ? one.violations : [one];
    const hints = violations.flatMap((violation) => {
      const list = (violation as { hints?: unknown } | null)?.hints;
      return Array.isArray(list) ? (list as Hint[]) : [];
    });
    if (hints.length > 0) return hints.map((hint) => wordHint(hint)).join(' or ');
  }
  return undefined;
}

function messageOf(error: unknown): string {
  const inner = (error as { cause?: unknown } | null)?.cause;
  const one = error instanceof UnsafePlanError || !(inner instanceof Error) ? error : inner;
  return one instanceof Error ? one.message : String(one);
}
