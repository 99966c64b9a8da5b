/**
 * Apply: one POST of the complete domain list per change (call 2), with a bounded pool of
 * workers. The service's answer is checked, not trusted: a scope counts as applied only when
 * the `autojoinDomains` it returns, normalized and sorted, are exactly the planned list.
 * A failed scope never stops the others; the report says what happened to each.
 */
import type { ServiceClient } from '../service/client.js';
import type { AutojoinState, SyncRequest } from '../service/types.js';
import type { Change, Plan } from '../plan/types.js';
import type { ApplyReport, AppliedScope, FailedScope } from './types.js';
import { forEachBounded } from '../concurrency.js';
import { comparableDomains } from '../plan/index.js';
import { DEFAULT_CONCURRENCY } from '../run/numbers.js';

export interface ApplyOptions {
  /** Most POSTs in flight at once (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /** Called after each scope, applied or failed. */
  onProgress?: (done: number, total: number) => void;
  /** When aborted, scopes not yet started are reported as skipped. */
  signal?: AbortSignal;
}

type Outcome = { applied: AppliedScope } | { failed: FailedScope };

/**
 * POSTs the complete list of every change in `plan` and verifies each response.
 * @returns applied / failed (one-line reason) / skipped, each in plan order.
 */
export async function applyChanges(client: ServiceClient, plan: Plan, options: ApplyOptions = {}): Promise<ApplyReport> {
  const outcomes: (Outcome | undefined)[] = new Array<Outcome | undefined>(plan.changes.length);
  let done = 0;
  await forEachBounded(
    plan.changes,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (change, index) => {
      outcomes[index] = await applyOne(client, change);
      options.onProgress?.(++done, plan.changes.length);
    },
    options.signal,
  );
  return collectReport(plan.changes, outcomes);
}

async function applyOne(client: ServiceClient, change: Change): Promise<Outcome> {
  try {
    const state = await client.syncAutojoin(syncRequest(change));
    const mismatch = verifyStored(state, change.after);
    if (mismatch) {
      const liveDomains = comparableDomains(state.autojoinDomains.map((entry) => entry.domain));
      return { failed: { key: change.key, kind: change.kind, reason: mismatch, liveDomains } };
    }
    return { applied: { key: change.key, kind: change.kind, domains: change.after } };
  } catch (error) {
    return { failed: { key: change.key, kind: change.kind, reason: oneLine(error) } };
  }
}

/** The body of call 2 for one change: always the complete desired list, with the file's name and metadata when it has them. */
export function syncRequest(change: Change): SyncRequest {
  const body: SyncRequest = {
    domains: change.after,
    scope: change.scope,
    scopeType: change.scopeType,
    componentId: change.componentId,
  };
  if (change.scopeName !== undefined) body.scopeName = change.scopeName;
  if (change.metadata !== undefined) body.metadata = change.metadata;
  return body;
}

/** @returns null when the service stored exactly `expected`, else a one-line reason. */
export function verifyStored(state: AutojoinState, expected: readonly string[]): string | null {
  const stored = comparableDomains(state.autojoinDomains.map((entry) => entry.domain));
  const wanted = comparableDomains(expected);
  if (stored.length === wanted.length && stored.every((domain, i) => domain === wanted[i])) return null;
  return `service stored ${listText(stored)}, expected ${listText(wanted)}`;
}

function listText(domains: readonly string[]): string {
  return domains.length === 0 ? '[]' : `[${domains.join(', ')}]`;
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0]?.trim() || 'unknown error';
}

function collectReport(changes: readonly Change[], outcomes: readonly (Outcome | undefined)[]): ApplyReport {
  const report: ApplyReport = { applied: [], failed: [], skipped: [] };
  changes.forEach((change, index) => {
    const outcome = outcomes[index];
    if (!outcome) report.skipped.push({ key: change.key, reason: 'not attempted: the run was interrupted' });
    else if ('applied' in outcome) report.applied.push(outcome.applied);
    else report.failed.push(outcome.failed);
  });
  return report;
}
