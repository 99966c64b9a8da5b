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
  const before = new Set(change.before);
  const after = new Set(change.after);
  const added = change.after.filter((domain) => !before.has(domain));
  const removed = change.before.filter((domain) => !after.has(domain));
  return { added, removed, unchanged: change.after.length - added.length };
}

/** Counts changes by kind and domains added/removed; `unchanged` = covered scopes without a change. */
export function summarize(plan: Pick<Plan, 'changes' | 'scopes'>): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, clear: 0, unchanged: plan.scopes.length - plan.changes.length, domainsAdded: 0, domainsRemoved: 0 };
  for (const change of plan.changes) {
    const delta = domainDelta(change);
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
