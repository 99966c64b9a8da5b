/**
 * The apply report for machines (`apply --format json`): one versioned document, described by
 * schemas/apply-report.schema.json. Per changed scope: the change as planned, what happened
 * (applied / failed with the reason / skipped with the reason) and the live domains after.
 */
import type { ApplyReport } from '../apply/types.js';
import type { Change, ChangeKind, Plan } from '../plan/types.js';
import { domainDelta, summarize, type DomainDelta } from '../plan/derived.js';
import type { ScopeKey } from '../scope.js';

/** Version of the apply report format; bumped only on an incompatible change. */
export const APPLY_REPORT_VERSION = 1;

export type ApplyOutcome = 'applied' | 'failed' | 'skipped';

/** One changed scope in the report. */
export interface ApplyReportScope {
  key: ScopeKey;
  scopeType: string;
  scope: string;
  change: { kind: ChangeKind; before: string[]; after: string[]; added: string[]; removed: string[] };
  outcome: ApplyOutcome;
  /** failed and skipped: why, in one line. */
  reason?: string;
  /**
   * The scope's domains on the service after the run: applied, what the service stored; skipped,
   * the live domains read before (untouched); failed, what the service stored when it answered
   * with other domains, else null (unknown).
   */
  liveDomains: string[] | null;
}

/** The whole document. */
export interface ApplyReportDocument {
  formatVersion: typeof APPLY_REPORT_VERSION;
  target: string;
  summary: { applied: number; failed: number; skipped: number; unchanged: number };
  scopes: ApplyReportScope[];
}

/** @returns the report document of `report`, the outcome of applying `plan`, in plan order. */
export function applyReportDocument(plan: Plan, report: ApplyReport): ApplyReportDocument {
  const applied = new Map(report.applied.map((entry) => [entry.key, entry]));
  const failed = new Map(report.failed.map((entry) => [entry.key, entry]));
  const skipped = new Map(report.skipped.map((entry) => [entry.key, entry]));
  const scopes = plan.changes.map((change): ApplyReportScope => {
    const base = {
      key: change.key,
      scopeType: change.scopeType,
      scope: change.scope,
      change: { kind: change.kind, before: change.before, after: change.after, ...addedRemoved(change) },
    };
    const done = applied.get(change.key);
    if (done) return { ...base, outcome: 'applied', liveDomains: done.domains };
    const failure = failed.get(change.key);
    if (failure) return { ...base, outcome: 'failed', reason: failure.reason, liveDomains: failure.liveDomains ?? null };
    const skip = skipped.get(change.key);
    return { ...base, outcome: 'skipped', reason: skip?.reason ?? 'not attempted', liveDomains: change.before };
  });
  const count = (outcome: ApplyOutcome): number => scopes.filter((scope) => scope.outcome === outcome).length;
  return {
    formatVersion: APPLY_REPORT_VERSION,
    target: plan.target,
    summary: { applied: count('applied'), failed: count('failed'), skipped: count('skipped'), unchanged: summarize(plan).unchanged },
    scopes,
  };
}

function addedRemoved(change: Change): Pick<DomainDelta, 'added' | 'removed'> {
  const { added, removed } = domainDelta(change);
  return { added, removed };
}

/** @returns the report document as 2-space JSON with a trailing newline. */
export function renderApplyReportJson(plan: Plan, report: ApplyReport): string {
  return `${JSON.stringify(applyReportDocument(plan, report), null, 2)}\n`;
}
