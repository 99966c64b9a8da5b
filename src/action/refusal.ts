/**
 * A refused run, as the job summary and a pull request's caution show it: which check refused
 * (a safety limit, a stale saved plan, another owner's scope, a checkout behind the last apply),
 * its limit, the count that broke it, and what lets it through. After a run (push, schedule,
 * dispatch) that is the input to set; in a pull request, whose reviewer cannot re-run the apply
 * with other inputs, it is what the reviewer can do: change the project file in the pull request,
 * ask for the apply workflow's input, or split the change.
 */
import { PrunePercentError, RemovalPercentError, TooManyRemovalsError, UnintendedClearError, UnsafePlanError } from '../plan/safety.js';
import { StalePlanError } from '../plan/refusals.js';
import { OwnedElsewhereError } from '../reconcile/ownership-refusal.js';
import { BehindCheckoutError } from '../history/behind.js';
import { wordHint, type Hint } from '../hint.js';
import { refusalsOfError, type VerdictRefusal } from '../commands/verdict.js';
import { escapeMarkdown } from '../render/index.js';
import { firstItems, plural } from '../text.js';
import { ExitCode, RunError, toRunError } from '../output/exit-codes.js';
import { shortCommit, shownLive } from '../redact.js';

/** One broken check: what it is, its limit, the count, and what lets the run through. */
export interface RefusalRow {
  check: string;
  limit: string;
  count: string;
  /** After a run: the input (with its value) or the step that lets it through. */
  override: string;
  /** In a pull request: what its reviewer can do. */
  reviewer: string;
}

/** A refused run: its rows, and the error's own message (for the log). */
export interface Refusal {
  rows: RefusalRow[];
  message: string;
}

const reported = new WeakSet<object>();

/** @returns the refusal an error (or the cause of a RunError) stands for; null for any other failure. */
export function refusalOf(error: unknown): Refusal | null {
  const inner = causeOf(error);
  const rows = rowsOf(inner);
  if (rows === null) return null;
  return { rows, message: inner instanceof Error ? inner.message : String(inner) };
}

/** Marks an error as written to the job summary, so the step does not write it twice. */
export function markReported(error: unknown): void {
  if (typeof error === 'object' && error !== null) reported.add(causeOf(error) as object);
}

/** @returns whether {@link markReported} saw this error. */
export function wasReported(error: unknown): boolean {
  const inner = causeOf(error);
  return typeof inner === 'object' && inner !== null && reported.has(inner);
}

function causeOf(error: unknown): unknown {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return typeof cause === 'object' && cause !== null && !(error instanceof UnsafePlanError) && !(error instanceof StalePlanError) ? cause : error;
}

function rowsOf(error: unknown): RefusalRow[] | null {
  if (error instanceof UnsafePlanError) return error.violations.map(limitRow);
  if (error instanceof StalePlanError) return [staleRow(error)];
  if (error instanceof OwnedElsewhereError) return [ownerRow(error)];
  if (error instanceof BehindCheckoutError) return [behindRow(error)];
  // Every other refusal of the verdict (a write check, an owner that cannot be read), from its data.
  const refusals = refusalsOfError(error);
  if (refusals) return refusals.map(verdictRow);
  return hintedRow(error);
}

/** A refusal of the verdict without a row of its own: its check, scopes and the settings that change it. */
function verdictRow(refusal: VerdictRefusal): RefusalRow {
  const override = refusal.hints.length > 0 ? hintsText(refusal.hints) : refusal.kind === 'write-check' ? 'set `drift: revert` on the scope (its policy file) to write the files\' state instead' : 'none';
  return { check: refusal.kind === 'write-check' ? `write check ${refusal.check}` : refusal.check, limit: refusal.message, count: `${plural(refusal.scopes.length, 'scope')} (${scopesText(refusal.scopes)})`, override, reviewer: override };
}

/** One safety limit the plan breaks. */
export function limitRow(violation: UnsafePlanError): RefusalRow {
  const override = hintsText(violation.hints);
  if (violation instanceof TooManyRemovalsError) {
    return {
      check: 'safety limit max-removals',
      limit: `${plural(violation.limit, 'domain')} removed in one run`,
      count: `${plural(violation.removals, 'domain')} removed (${scopesText(violation.scopes)})`,
      override,
      reviewer: `raise \`safety.maxRemovals\` in autojoin-sync.yaml to ${violation.removals} in this pull request, ask for the apply workflow's input \`max-removals: ${violation.removals}\`, or split the change into smaller pull requests`,
    };
  }
  if (violation instanceof RemovalPercentError || violation instanceof PrunePercentError) return percentRow(violation, override);
  if (violation instanceof UnintendedClearError) {
    return {
      check: 'clear without `domains: []`',
      limit: 'a scope is cleared only when its file says `domains: []` (or the file is deleted)',
      count: `${plural(violation.scopes.length, 'scope')} cleared (${scopesText(violation.scopes)})`,
      override: `${override}, or write \`domains: []\` in the file`,
      reviewer: 'write `domains: []` in the policy file of each scope to clear, in this pull request',
    };
  }
  return { check: 'safety limit', limit: violation.message, count: scopesText(violation.scopes), override, reviewer: 'see the plan below' };
}

function percentRow(violation: RemovalPercentError | PrunePercentError, override: string): RefusalRow {
  const percent = (violation.hints[0]?.value as number | undefined) ?? violation.limit;
  const count =
    violation instanceof PrunePercentError
      ? `${violation.cleared.length} of ${violation.active} scopes with active autojoin cleared (deleted policy files)`
      : firstItems(violation.removals.map((r) => `${r.key}: ${r.removed} of ${r.total} domains`), 5);
  return {
    check: 'safety limit max-removal-percent',
    limit: `${violation.limit}% ${violation instanceof PrunePercentError ? 'of the active scopes' : "of a scope's domains"}`,
    count,
    override: `${override}, or \`safety.maxRemovalPercent\` in autojoin-sync.yaml`,
    reviewer: `raise \`safety.maxRemovalPercent\` in autojoin-sync.yaml to ${percent} in this pull request, ask for the apply workflow's input \`max-removal-percent: ${percent}\`, or split the change`,
  };
}

function staleRow(error: StalePlanError): RefusalRow {
  return {
    check: 'stale saved plan',
    limit: 'a saved plan is applied only while the live state of each of its scopes is as when it was made',
    count: `${plural(error.moved.length, 'scope')} changed since the plan was made (${scopesText(error.moved)})`,
    override: 'no input: make a new plan (re-run the plan job) and apply that',
    reviewer: 'review the new plan of a re-run plan job',
  };
}

function ownerRow(error: OwnedElsewhereError): RefusalRow {
  const keys = error.scopes.map((scope) => scope.key);
  return {
    check: 'ownership',
    limit: "a scope whose `autojoin-sync.owner` marker names another owner is not written",
    count: `${plural(keys.length, 'scope')} owned elsewhere (${firstItems(error.scopes.map((s) => `${s.key}: ${shownLive(s.owner)}`), 5)})`,
    override: `${hintsText(error.hints)}, or \`owner\` in autojoin-sync.yaml`,
    reviewer: 'ask the other owner to release the scopes, or ask for the apply workflow\'s input `take-ownership`',
  };
}

function behindRow(error: BehindCheckoutError): RefusalRow {
  const keys = error.scopes.map((scope) => scope.key);
  const named = firstItems(error.scopes.map((scope) => `${scope.key}: commit ${shortCommit(scope.commit)}`), 5);
  const shallow = error.scopes.some((scope) => scope.missing === true);
  return {
    check: 'behind checkout',
    limit: "a scope is written only from a checkout that contains the commit its `autojoin-sync.commit` marker names",
    count: `${plural(keys.length, 'scope')} written from a commit this checkout does not contain (${named})`,
    override: shallow
      ? 'check out the whole history (`fetch-depth: 0` for actions/checkout), then run again'
      : `update the checkout (re-run on the newest commit), or, when this history is the one to keep (after a rewrite), ${wordHint({ setting: 'allowBehind', value: keys.slice(0, 3) })}`,
    reviewer: "update the pull request's branch from the default branch, so its plan contains the last apply",
  };
}

/** A refusal of another branch's making (a behind checkout): an error that names its overrides as hints. */
function hintedRow(error: unknown): RefusalRow[] | null {
  const hints = (error as { hints?: unknown } | null)?.hints;
  if (!(error instanceof Error) || !Array.isArray(hints) || hints.length === 0) return null;
  const scopes = (error as { scopes?: unknown }).scopes;
  const count = Array.isArray(scopes) ? plural(scopes.length, 'scope') : 'see the message';
  return [{ check: error.name.replace(/Error$/u, ''), limit: error.message, count, override: hintsText(hints as Hint[]), reviewer: 'see the message' }];
}

function hintsText(hints: readonly Hint[]): string {
  return hints.length === 0 ? 'none' : hints.map((one) => wordHint(one)).join(' or ');
}

function scopesText(scopes: readonly string[]): string {
  return firstItems([...scopes], 5);
}

/**
 * @param refusal what refused the run
 * @param exitCode the step's exit code (3 for a safety limit, 4 for a stale plan, 1 otherwise)
 * @returns the job summary's block: a table of limit, count and override, then the message
 */
export function refusalMarkdown(refusal: Refusal, exitCode: number): string {
  const cell = (text: string): string => escapeMarkdown(text).replace(/\|/gu, '\\|').replace(/\n/gu, ' ');
  const rows = refusal.rows.map((row) => `| ${cell(row.check)} | ${cell(row.limit)} | ${cell(row.count)} | ${cell(row.override)} |`);
  return (
    `> [!CAUTION]\n> **Refused: nothing was written** (exit code ${exitCode}).\n\n` +
    `| refused by | limit | count | to go ahead |\n|---|---|---|---|\n${rows.join('\n')}\n\n`
  );
}

/** The caution of a pull request's plan: per limit, its count and what the reviewer can do; any other refusal in apply's words. */
export function reviewerCautions(refusals: readonly VerdictRefusal[]): string[] {
  return refusals.map((refusal) => {
    const violation = refusal.kind === 'safety-limit' ? limitViolation(refusal) : undefined;
    if (!violation) return refusal.message;
    const row = limitRow(violation);
    return `${row.check}: ${row.count}, over the limit of ${row.limit}. To let it through: ${row.reviewer}`;
  });
}

/** The one limit of a safety-limit refusal, among the violations its error carries. */
function limitViolation(refusal: VerdictRefusal): UnsafePlanError | undefined {
  const error = refusal.error;
  if (!(error instanceof UnsafePlanError)) return undefined;
  return error.violations.find((violation) => (violation.message.split(' — also: ')[0] ?? violation.message) === refusal.message) ?? undefined;
}

/** @returns the `summary` output of a refused run: `refused by safety limit max-removals: 12 domains removed (…); limit …`. */
export function refusalSummary(refusal: Refusal): string {
  return `refused by ${refusal.rows.map((row) => `${row.check}: ${row.count}; limit ${row.limit}`).join(' — and ')}; nothing was written`;
}

/**
 * The caution over a plan that apply would refuse: after a run, each limit's own message (it names
 * the input); in a pull request, what its reviewer can do.
 */
export function planCautions(refusals: readonly VerdictRefusal[], pullRequest: boolean): string[] {
  return pullRequest ? reviewerCautions(refusals) : refusals.map((refusal) => refusal.message);
}

/** The refusal block for the job summary, before the refused plan; '' for another failure. Marks the error as reported. */
export function refusalPrefix(error: unknown): string {
  const refusal = refusalOf(error);
  if (!refusal) return '';
  markReported(error);
  const mapped = toRunError(error);
  return refusalMarkdown(refusal, mapped instanceof RunError ? mapped.exitCode : ExitCode.error);
}
