/**
 * What follows from a plan rather than being decided by it: each change's domain delta and the
 * plan's counts. A Change holds only `before` and `after`; every reader (the renderers, the
 * safety limits, the apply report, the action's outputs) and the encoder derive the rest here,
 * so the figures a reviewer reads and the ones a saved plan is checked against are one computation.
 */
import type { Plan, PlanSummary } from './types.js';

/** How a change moves a scope's domains. */
export interface DomainDelta {
  /** In `after`, not in `before`, in `after`'s order. */
  added: string[];
  /** In `before`, not in `after`, in `before`'s order. */
  removed: string[];
  /** Domains of `after` that `before` holds too. */
  unchanged: number;
}

/** @returns the domains a change adds and removes, and how many it keeps. */
export function domainDelta(change: { readonly before: readonly string[]; readonly after: readonly string[] }): DomainDelta {
  const { before, after } = change;
  if (ascending(before) && ascending(after)) return mergedDelta(before, after);
  const was = new Set(before);
  const now = new Set(after);
  const added = after.filter((domain) => !was.has(domain));
  const removed = before.filter((domain) => !now.has(domain));
  return { added, removed, unchanged: after.length - added.length };
}

/**
 * The same as the Set comparison for the lists a plan holds (normalized: sorted, unique), in one
 * walk over both: renderers and the encoder derive every change's delta, so this is on their path.
 */
function mergedDelta(before: readonly string[], after: readonly string[]): DomainDelta {
  const added: string[] = [];
  const removed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const old = before[i];
    const now = after[j];
    if (now === undefined || (old !== undefined && old < now)) {
      removed.push(old as string);
      i += 1;
    } else if (old === undefined || now < old) {
      added.push(now);
      j += 1;
    } else {
      i += 1;
      j += 1;
    }
  }
  return { added, removed, unchanged: after.length - added.length };
}

/** @returns true when each value sorts after the one before it (compareStrings' order: sorted and unique). */
function ascending(list: readonly string[]): boolean {
  for (let index = 1; index < list.length; index += 1) if (!((list[index - 1] as string) < (list[index] as string))) return false;
  return true;
}

/**
 * Counts changes by kind and domains added/removed; `unchanged` = covered scopes without a change.
 * @param deltas each change's {@link domainDelta}, in order, when the caller has them already
 */
export function summarize(plan: Pick<Plan, 'changes' | 'scopes'>, deltas: readonly DomainDelta[] = plan.changes.map(domainDelta)): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, clear: 0, unchanged: plan.scopes.length - plan.changes.length, domainsAdded: 0, domainsRemoved: 0 };
  for (const [index, change] of plan.changes.entries()) {
    const delta = deltas[index] ?? domainDelta(change);
    summary[change.kind] += 1;
    summary.domainsAdded += delta.added.length;
    summary.domainsRemoved += delta.removed.length;
  }
  return summary;
}

/** @returns true when both lists hold the same values in the same order (domain lists are kept sorted). */
export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
