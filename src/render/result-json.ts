/**
 * The document `--format json` prints when a command ends without its usual result (plan,
 * apply report): invalid policy files, a plan a safety limit refused, a stale saved plan, any
 * other error. Described by schemas/result.schema.json, so stdout holds one versioned JSON
 * document on every outcome. It never holds a credential: the message comes redacted.
 */
import { RemovalPercentError, PrunePercentError, TooManyRemovalsError, UnintendedClearError, UnsafePlanError } from '../plan/safety.js';
import type { Plan } from '../plan/types.js';
import { encodePlan, type PlanDocument } from '../plan/encode.js';
import type { Diagnostic } from '../policy/types.js';

/** Version of the result format; bumped only on an incompatible change. */
export const RESULT_VERSION = 1;

export type ResultOutcome = 'invalid' | 'refused' | 'stale' | 'error';

/** One safety limit a plan breaks: which, the plan's figure and what the limit allows. */
export interface Refusal {
  limit: 'max-removals' | 'max-removal-percent' | 'allow-empty';
  /** Domains removed (max-removals), the worst percent (max-removal-percent), or unintended clears (allow-empty). */
  count: number;
  allowed: number;
  scopes: string[];
  message: string;
}

export interface ResultDocument {
  resultVersion: typeof RESULT_VERSION;
  outcome: ResultOutcome;
  exitCode: number;
  message: string;
  diagnostics?: Diagnostic[];
  refusals?: Refusal[];
  /** The plan document (encode.ts), as `plan --format json` prints it. */
  plan?: PlanDocument;
}

/** What the command knew when it stopped. */
export interface ResultInput {
  exitCode: number;
  /** The error's message, already redacted and escaped. */
  message: string;
  error: unknown;
  diagnostics?: readonly Diagnostic[];
  plan?: Plan;
}

/** @returns the document for a command that stopped with `input.error`. */
export function resultDocument(input: ResultInput): ResultDocument {
  const refusals = input.error instanceof UnsafePlanError ? input.error.violations.map(refusalOf) : undefined;
  const document: ResultDocument = { resultVersion: RESULT_VERSION, outcome: outcomeOf(input, refusals), exitCode: input.exitCode, message: input.message };
  if (input.diagnostics && input.diagnostics.length > 0) document.diagnostics = [...input.diagnostics];
  if (refusals) document.refusals = refusals;
  if (input.plan) document.plan = encodePlan(input.plan);
  return document;
}

/** @returns the document as JSON text (2-space indent, trailing newline). */
export function renderResultJson(input: ResultInput): string {
  return `${JSON.stringify(resultDocument(input), null, 2)}\n`;
}

function outcomeOf(input: ResultInput, refusals: Refusal[] | undefined): ResultOutcome {
  if (refusals) return 'refused';
  if (input.exitCode === 4) return 'stale';
  return input.diagnostics?.some((d) => d.severity === 'error') ? 'invalid' : 'error';
}

function refusalOf(violation: UnsafePlanError): Refusal {
  const base = { scopes: violation.scopes, message: violation.message.split(' — also: ')[0] ?? violation.message };
  if (violation instanceof TooManyRemovalsError) return { limit: 'max-removals', count: violation.removals, allowed: violation.limit, ...base };
  if (violation instanceof RemovalPercentError) {
    return { limit: 'max-removal-percent', count: Math.max(...violation.removals.map((r) => round(r.percent))), allowed: violation.limit, ...base };
  }
  if (violation instanceof PrunePercentError) {
    return { limit: 'max-removal-percent', count: round((violation.cleared.length / violation.active) * 100), allowed: violation.limit, ...base };
  }
  const clears = violation instanceof UnintendedClearError ? violation.scopes.length : 0;
  return { limit: 'allow-empty', count: clears, allowed: 0, ...base };
}

function round(percent: number): number {
  return Math.round(percent * 10) / 10;
}
