/**
 * The document `--format json` prints when a command ends without its usual result (plan,
 * apply report): invalid policy files, a plan a safety limit refused, a stale saved plan, any
 * other error. Described by schemas/result.schema.json, so stdout holds one versioned JSON
 * document on every outcome. It never holds a credential: the message comes redacted.
 */
import type { Plan } from '../plan/types.js';
import { encodePlan, type PlanDocument } from '../plan/encode.js';
import type { Diagnostic } from '../policy/types.js';
import { reportedDiagnostics } from './diagnostics.js';

/** Version of the result format; bumped only on an incompatible change. */
export const RESULT_VERSION = 1;

export type ResultOutcome = 'invalid' | 'refused' | 'stale' | 'error';

/** One refusal (src/commands/verdict.ts, as data): which check, the plan's figure, what the check allows, the scopes it names. */
export interface Refusal {
  /** The safety limit (`max-removals`, `max-removal-percent`, `allow-empty`), else the kind of refusal. */
  limit: 'max-removals' | 'max-removal-percent' | 'allow-empty' | 'stale' | 'ownership' | 'unknown-owner' | 'behind' | 'write-check' | 'only-expired';
  /** For a write check: its code (`public-suffix`, `rule-deny`, `rule-max-scopes`, …). */
  check?: string;
  /** Domains removed (max-removals), the worst percent (max-removal-percent), unintended clears (allow-empty), else the scopes or problems it names. */
  count: number;
  allowed: number;
  scopes: string[];
  message: string;
}

/** A refusal as the command layer's verdict gives it (the fields the document keeps). */
export interface RefusalInput {
  kind: string;
  check: string;
  count: number;
  allowed: number;
  scopes: readonly string[];
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
  /** The refusals the error stands for (src/commands/verdict.ts `refusalsOfError`); absent for another failure. */
  refusals?: readonly RefusalInput[] | null;
}

/** @returns the document for a command that stopped with `input.error`. */
export function resultDocument(input: ResultInput): ResultDocument {
  const refusals = input.refusals && input.refusals.length > 0 ? input.refusals.map(refusalOf) : undefined;
  const document: ResultDocument = { resultVersion: RESULT_VERSION, outcome: outcomeOf(input, refusals), exitCode: input.exitCode, message: input.message };
  if (input.diagnostics && input.diagnostics.length > 0) document.diagnostics = reportedDiagnostics(input.diagnostics);
  if (refusals) document.refusals = refusals;
  if (input.plan) document.plan = encodePlan(input.plan);
  return document;
}

/** @returns the document as JSON text (2-space indent, trailing newline). */
export function renderResultJson(input: ResultInput): string {
  return `${JSON.stringify(resultDocument(input), null, 2)}\n`;
}

function outcomeOf(input: ResultInput, refusals: Refusal[] | undefined): ResultOutcome {
  if (input.exitCode === 4) return 'stale';
  if (refusals) return 'refused';
  return input.diagnostics?.some((d) => d.severity === 'error') ? 'invalid' : 'error';
}

function refusalOf(refusal: RefusalInput): Refusal {
  const limit = (refusal.kind === 'safety-limit' ? refusal.check : refusal.kind) as Refusal['limit'];
  const row: Refusal = { limit, count: refusal.count, allowed: refusal.allowed, scopes: [...refusal.scopes], message: refusal.message };
  if (refusal.kind === 'write-check') row.check = refusal.check;
  return row;
}
