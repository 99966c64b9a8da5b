/**
 * A refused run, as the job summary and a pull request's caution show it: which check refused
 * (a safety limit, a stale saved plan, another owner's scope, a checkout behind the last apply),
 * its limit, the count that broke it, and what lets it through. Each row is mapped from the
 * verdict's refusal (src/commands/verdict.ts: its kind, check, scopes and figures), the one source
 * the CLI's refusals come from too. After a run (push, schedule,
 * dispatch) that is the input to set; in a pull request, whose reviewer cannot re-run the apply
 * with other inputs, it is what the reviewer can do: change the project file in the pull request,
 * ask for the apply workflow's input, or split the change.
 */
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

/** The error that refused: the verdict's (a RunError's cause, else the error itself); for another failure, its cause when it has one. */
function causeOf(error: unknown): unknown {
  const refused = refusalsOfError(error)?.[0]?.error;
  if (refused) return refused;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return typeof cause === 'object' && cause !== null ? cause : error;
}

function rowsOf(error: unknown): RefusalRow[] | null {
  const refusals = refusalsOfError(error);
  return refusals ? refusals.map(rowOf) : hintedRow(error);
}

/** One refusal of the verdict as its row: by its kind, from its figures. */
function rowOf(refusal: VerdictRefusal): RefusalRow {
  if (refusal.kind === 'safety-limit') return limitRow(refusal);
  if (refusal.kind === 'stale') return staleRow(refusal);
  if (refusal.kind === 'ownership') return ownerRow(refusal);
  if (refusal.kind === 'behind') return behindRow(refusal);
  // Every other refusal (a write check, an owner that cannot be read, an entry only-expired cannot write), from its data.
  return verdictRow(refusal);
}

/** A refusal of the verdict without a row of its own: its check, scopes and the settings that change it. */
function verdictRow(refusal: VerdictRefusal): RefusalRow {
  const override = refusal.hints.length > 0 ? hintsText(refusal.hints) : refusal.kind === 'write-check' ? 'set `drift: revert` on the scope (its policy file) to write the files\' state instead' : 'none';
  return { check: refusal.kind === 'write-check' ? `write check ${refusal.check}` : refusal.check, limit: refusal.message, count: `${plural(refusal.scopes.length, 'scope')} (${scopesText(refusal.scopes)})`, override, reviewer: override };
}

/** One safety limit the plan breaks. */
function limitRow(refusal: VerdictRefusal): RefusalRow {
  const override = hintsText(refusal.hints);
  if (refusal.check === 'max-removals') {
    return {
      check: 'safety limit max-removals',
      limit: `${plural(refusal.allowed, 'domain')} removed in one run`,
      count: `${plural(refusal.count, 'domain')} removed (${scopesText(refusal.scopes)})`,
      override,
      reviewer: `raise \`safety.maxRemovals\` in autojoin-sync.yaml to ${refusal.count} in this pull request, ask for the apply workflow's input \`max-removals: ${refusal.count}\`, or split the change into smaller pull requests`,
    };
  }
  if (refusal.check === 'max-removal-percent') return percentRow(refusal, override);
  return {
    check: 'clear without `domains: []`',
    limit: 'a scope is cleared only when its file says `domains: []` (or the file is deleted)',
    count: `${plural(refusal.scopes.length, 'scope')} cleared (${scopesText(refusal.scopes)})`,
    override: `${override}, or write \`domains: []\` in the file`,
    reviewer: 'write `domains: []` in the policy file of each scope to clear, in this pull request',
  };
}

function percentRow(refusal: VerdictRefusal, override: string): RefusalRow {
  const percent = (refusal.hints[0]?.value as number | undefined) ?? refusal.allowed;
  const pruned = refusal.detail?.pruned;
  const count = pruned
    ? `${pruned.cleared} of ${pruned.active} scopes with active autojoin cleared (deleted policy files)`
    : firstItems((refusal.detail?.removals ?? []).map((r) => `${r.key}: ${r.removed} of ${r.total} domains`), 5);
  return {
    check: 'safety limit max-removal-percent',
    limit: `${refusal.allowed}% ${pruned ? 'of the active scopes' : "of a scope's domains"}`,
    count,
    override: `${override}, or \`safety.maxRemovalPercent\` in autojoin-sync.yaml`,
    reviewer: `raise \`safety.maxRemovalPercent\` in autojoin-sync.yaml to ${percent} in this pull request, ask for the apply workflow's input \`max-removal-percent: ${percent}\`, or split the change`,
  };
}

function staleRow(refusal: VerdictRefusal): RefusalRow {
  return {
    check: 'stale saved plan',
    limit: 'a saved plan is applied only while the live state of each of its scopes is as when it was made',
    count: `${plural(refusal.scopes.length, 'scope')} changed since the plan was made (${scopesText(refusal.scopes)})`,
    override: 'no input: make a new plan (re-run the plan job) and apply that',
    reviewer: 'review the new plan of a re-run plan job',
  };
}

function ownerRow(refusal: VerdictRefusal): RefusalRow {
  const owners = refusal.detail?.owners ?? [];
  return {
    check: 'ownership',
    limit: "a scope whose `autojoin-sync.owner` marker names another owner is not written",
    count: `${plural(refusal.scopes.length, 'scope')} owned elsewhere (${firstItems(owners.map((s) => `${s.key}: ${shownLive(s.owner)}`), 5)})`,
    override: `${hintsText(refusal.hints)}, or \`owner\` in autojoin-sync.yaml`,
    reviewer: 'ask the other owner to release the scopes, or ask for the apply workflow\'s input `take-ownership`',
  };
}

function behindRow(refusal: VerdictRefusal): RefusalRow {
  const keys = refusal.scopes;
  const named = firstItems((refusal.detail?.commits ?? []).map((scope) => `${scope.key}: commit ${shortCommit(scope.commit)}`), 5);
  const shallow = refusal.check === 'behind-shallow';
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
    if (refusal.kind !== 'safety-limit') return refusal.message;
    const row = limitRow(refusal);
    return `${row.check}: ${row.count}, over the limit of ${row.limit}. To let it through: ${row.reviewer}`;
  });
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
