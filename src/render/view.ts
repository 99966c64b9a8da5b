/**
 * What the text and markdown renderers both show of a plan, gathered once: the words of
 * describe.ts put together per change and per plan. Each renderer only lays them out (text
 * paints, markdown escapes), so the two cannot drift apart in what they say.
 */
import { domainDelta, summarize, type DomainDelta } from '../plan/derived.js';
import type { Change, Plan, PlanSummary } from '../plan/types.js';
import {
  changeDetail,
  domainLines,
  driftAction,
  driftSummaryLine,
  fieldLines,
  keptEntry,
  KIND_SIGN,
  noChangesLine,
  behindLine,
  notManagedEntry,
  notManagedLine,
  ORIGIN_LABEL,
  outsideLine,
  ownerOnlyLine,
  removalLine,
  sentFieldLines,
  summaryLine,
  targetLine,
  type DomainLine,
} from './describe.js';

/** One change as every renderer shows it; plain text, neither painted nor escaped. */
export interface ChangeView {
  /** `+`, `~` or `-`. */
  sign: string;
  /** The domains it adds and removes (derived.ts). */
  delta: DomainDelta;
  /** e.g. `update: +1 -1, 3 unchanged`. */
  detail: string;
  /** drift and conflict: which side moved the scope, what apply does, and what changed outside. */
  origin: { label: string; action: string; outside: string } | null;
  /** A scope pruned from git history: the commit that removed it. */
  removal: string | null;
  domains: DomainLine[];
  /** The changed fields, old → new. */
  fields: string[];
  /** The fields apply sends that `fields` does not show. */
  sent: string[];
}

/** @param context also list the unchanged domains (markdown's diff fence). */
export function changeView(change: Change, context: boolean): ChangeView {
  const origin = change.origin && change.outside ? { label: ORIGIN_LABEL[change.origin], action: driftAction(change), outside: outsideLine(change.outside) } : null;
  const delta = domainDelta(change);
  return {
    sign: KIND_SIGN[change.kind],
    delta,
    detail: changeDetail(change, delta),
    origin,
    removal: removalLine(change),
    domains: domainLines(change, context, delta),
    fields: fieldLines(change),
    sent: sentFieldLines(change),
  };
}

/** A plan's lines besides its changes, as every renderer shows them. */
export interface PlanView {
  /** The embedded emulator's warning, or null. */
  target: string | null;
  /** The counts, null when nothing changes. */
  summary: PlanSummary | null;
  /** `N to create, …` or, when nothing changes, `No changes. …`. */
  counts: string;
  /** Updates that only mark the owner, the scopes pruning leaves alone (count), and what the plan cannot know (`note: …`). */
  ownership: string[];
  /** @returns a line for each of the first `limit` scopes pruning leaves alone (all by default). */
  notManaged: (limit?: number) => string[];
  /** The drift section: its headline and the scopes kept as they are live; null when none changed outside. */
  drift: { headline: string; kept: string[] } | null;
}

/** @returns the plan's lines besides its changes (the counts derived once, derived.ts). */
export function planView(plan: Plan): PlanView {
  const summary = plan.changes.length > 0 ? summarize(plan) : null;
  const headline = driftSummaryLine(plan);
  return {
    target: targetLine(plan),
    summary,
    counts: summary === null ? noChangesLine(plan.scopes.length - plan.drift.length, plan.drift.length) : summaryLine(summary),
    ownership: [behindLine(plan), ownerOnlyLine(plan), notManagedLine(plan), ...(plan.notes ?? []).map((note) => `note: ${note}.`)].filter((line) => line !== null),
    notManaged: (limit = plan.notManagedHere.length) => plan.notManagedHere.slice(0, limit).map((entry) => notManagedEntry(entry, plan.owner)),
    drift: headline === null ? null : { headline, kept: plan.drift.map(keptEntry) },
  };
}
