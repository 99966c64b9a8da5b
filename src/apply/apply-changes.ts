/**
 * Apply: one POST of the complete domain list per change (call 2), through the one bounded pool
 * (src/concurrency.ts) as wide as the client's AIMD window. The service's answer is checked, not trusted: a scope counts as applied only when
 * the `autojoinDomains` it returns, normalized and sorted, are exactly the planned list.
 * A failed scope never stops the others; the report says what happened to each.
 */
import type { ServiceClient } from '../service/client.js';
import { ServiceError } from '../service/errors.js';
import type { AutojoinState, SyncRequest } from '../service/types.js';
import type { Change, Plan } from '../plan/types.js';
import type { ApplyReport, AppliedScope, FailedScope } from './types.js';
import { forEachBounded } from '../concurrency.js';
import { comparableDomains } from '../plan/index.js';
import { DEFAULT_OWNER, markerOf, metadataToWrite, stateDigest, unmarkedMetadata, writtenStateOf } from '../plan/ownership.js';

export interface ApplyOptions {
  /** The commit HEAD points to, recorded in each write's ownership marker; none outside git. */
  commit?: string;
  /** The UTC date of the writes (`autojoin-sync.applied`): the day expiry of this state is evaluated at. */
  applied?: string;
  /** Said once when the service's answer to a write shows no ownership marker. */
  onNotice?: (message: string) => void;
  /** Called after each scope, applied or failed; `soFar` reports what happened until now (a second Ctrl-C prints it). */
  onProgress?: ApplyProgress;
  /** When aborted, scopes not yet started are reported as skipped. */
  signal?: AbortSignal;
}

type Outcome = { applied: AppliedScope } | { failed: FailedScope };

/** After each scope: how many are done of how many, and the report of what happened so far. */
export type ApplyProgress = (done: number, total: number, soFar: () => ApplyReport) => void;

/** Why a scope without an outcome is in the report. */
export const NOT_ATTEMPTED = 'not attempted: the run was interrupted';
/** A write whose outcome is not known: sent, and no answer said what became of it (a later read, a plan, tells). */
export const MAY_BE_STORED = 'its write may or may not have been stored';
export const IN_FLIGHT = `in flight when the run stopped: ${MAY_BE_STORED}`;

/**
 * POSTs the complete list of every change in `plan` and verifies each response.
 * @returns applied / failed (one-line reason) / skipped, each in plan order.
 */
export async function applyChanges(client: ServiceClient, plan: Plan, options: ApplyOptions = {}): Promise<ApplyReport> {
  const outcomes: (Outcome | undefined)[] = new Array<Outcome | undefined>(plan.changes.length);
  const started = new Array<boolean>(plan.changes.length).fill(false);
  let done = 0;
  const soFar = (): ApplyReport => collectReport(plan.changes, outcomes, started);
  const marking: Marking = { owner: plan.owner, commit: options.commit, applied: options.applied, notice: once(options.onNotice) };
  await forEachBounded(
    plan.changes,
    (running) => client.poolWidth(running),
    async (change, index) => {
      started[index] = true;
      outcomes[index] = await applyOne(client, change, marking);
      options.onProgress?.(++done, plan.changes.length, soFar);
    },
    options.signal,
  );
  return soFar();
}

/** What each write's ownership marker carries, and where to say that the service dropped it. */
interface Marking {
  owner: string;
  commit?: string;
  applied?: string;
  notice: (message: string) => void;
}

async function applyOne(client: ServiceClient, change: Change, marking: Marking): Promise<Outcome> {
  try {
    const state = await client.syncAutojoin(syncRequest(change, marking));
    if (state.invitation && markerOf(state.invitation.metadata)?.owner !== marking.owner) marking.notice(noMarkerNotice(change));
    const mismatch = verifyStored(state, change.after);
    if (mismatch) {
      const liveDomains = comparableDomains(state.autojoinDomains.map((entry) => entry.domain));
      return { failed: { key: change.key, kind: change.kind, reason: mismatch, liveDomains } };
    }
    return { applied: { key: change.key, kind: change.kind, domains: change.after } };
  } catch (error) {
    const unknown = error instanceof ServiceError && error.outcomeUnknown;
    return { failed: { key: change.key, kind: change.kind, reason: unknown ? `${oneLine(error)}: ${MAY_BE_STORED} (a plan shows which)` : oneLine(error) } };
  }
}

/**
 * The body of call 2 for one change: always the complete desired list, with the file's name
 * when it has one, and metadata: the file's (else the live keys it keeps) with the ownership marker.
 */
export function syncRequest(change: Change, marking: Pick<Marking, 'owner' | 'commit' | 'applied'> = { owner: DEFAULT_OWNER }): SyncRequest {
  const body: SyncRequest = {
    domains: change.after,
    scope: change.scope,
    scopeType: change.scopeType,
    componentId: change.componentId,
  };
  if (change.scopeName !== undefined) body.scopeName = change.scopeName;
  const digest = stateDigest(writtenStateOf({ ...change, domains: change.after }));
  body.metadata = metadataToWrite({ managed: change.metadata, kept: change.keptMetadata, owner: marking.owner, commit: marking.commit, digest, applied: marking.applied });
  // --only-expired: the marker is written back as it was (src/plan/only-expired.ts).
  if (change.keepMarker) body.metadata = { ...unmarkedMetadata(body.metadata), ...change.keepMarker };
  return body;
}

function noMarkerNotice(change: Change): string {
  return (
    `the service's answer to the write of ${change.key} shows no ownership marker (autojoin-sync.owner in the invitation's metadata): ` +
    'this deployment seems to keep no metadata, so pruning clears nothing here (no scope can be shown to be ours) and drift cannot be told apart'
  );
}

/** @returns a function that passes on its first message only. */
function once(say: ((message: string) => void) | undefined): (message: string) => void {
  let said = false;
  return (message) => {
    if (said || !say) return;
    said = true;
    say(message);
  };
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

/** A scope started but not finished is only reported so before the run ends (a second Ctrl-C): the pool waits for every started one. */
function collectReport(changes: readonly Change[], outcomes: readonly (Outcome | undefined)[], started: readonly boolean[]): ApplyReport {
  const report: ApplyReport = { applied: [], failed: [], skipped: [] };
  changes.forEach((change, index) => {
    const outcome = outcomes[index];
    if (!outcome) report.skipped.push({ key: change.key, reason: started[index] ? IN_FLIGHT : NOT_ATTEMPTED });
    else if ('applied' in outcome) report.applied.push(outcome.applied);
    else report.failed.push(outcome.failed);
  });
  return report;
}
