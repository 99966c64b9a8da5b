/**
 * The words and signs every plan renderer shares, so text and markdown describe a
 * change the same way.
 */
import { domainToUnicode } from 'node:url';
import { compareStrings } from '../comparable-domain.js';
import { escapeControls } from '../escape.js';
import { EMBEDDED_TARGET } from '../plan/plan-builder.js';
import { DEFAULT_OWNER } from '../plan/ownership.js';
import { domainDelta, summarize, type DomainDelta } from '../plan/derived.js';
import type { Change, ChangeKind, DriftReport, FieldChange, NotManagedHere, Plan, PlanSummary } from '../plan/types.js';
import type { OutsideChange } from '../plan/types.js';
import { plural } from '../text.js';
import { cutText, LIVE_VALUE_CHARS, redactText, shortCommit } from '../redact.js';
import { ownerLookalikeNote } from '../plan/owner-lookalike.js';
import type { Diagnostic, SourcePos } from '../policy/types.js';
import { formatDiagnostic } from './diagnostics.js';
import { renamedDiagnostics } from './shown-here.js';

/** Terraform-style signs: `+` create, `~` update, `-` clear. */
export const KIND_SIGN: Record<ChangeKind, string> = { create: '+', update: '~', clear: '-' };

/** One line of a domain diff: `+` added, `-` removed, ` ` unchanged (context). */
export interface DomainLine {
  sign: '+' | '-' | ' ';
  /** The domain as shown ({@link showDomain}). */
  domain: string;
}

/** @returns `team/acme-eng (Acme Engineering)`, or the key alone without a name; non-printable characters escaped. */
export function scopeLabel(change: Pick<Change, 'key' | 'scopeName'>): string {
  return escapeControls(change.scopeName ? `${change.key} (${change.scopeName})` : change.key);
}

/**
 * @returns a domain as a reviewer should see it: an internationalized one as its punycode
 * (what the service stores) beside its Unicode form, `xn--mller-kva.de (müller.de)`, so
 * neither form can pass for the other; non-printable characters escaped.
 */
export function showDomain(domain: string): string {
  if (!/(^|\.)xn--/u.test(domain)) return escapeControls(domain);
  const unicode = domainToUnicode(domain);
  return unicode === '' || unicode === domain ? escapeControls(domain) : `${escapeControls(domain)} (${escapeControls(unicode)})`;
}

/** @returns e.g. `update: +1 -1, 3 unchanged`, `create: +2`, `clear (deactivates autojoin): -3 (policy file deleted)`. */
export function changeDetail(change: Change, delta: DomainDelta = domainDelta(change)): string {
  const pruned = change.reason === 'pruned' ? ' (policy file deleted)' : change.reason === 'replaced' ? ' (--replace: written again as the file says)' : '';
  const { added, removed, unchanged } = delta;
  switch (change.kind) {
    case 'create':
      return `create: +${added.length}${pruned}`;
    case 'update':
      if (onlyMarksOwner(change)) return 'update: owner only (marks the scope as managed here; nothing else changes)';
      return `update: +${added.length} -${removed.length}, ${unchanged} unchanged${fieldsChanged(change)}${pruned}`;
    case 'clear':
      return `clear (deactivates autojoin${joinedThrough(change)}): -${removed.length}${pruned}`;
  }
}

/** @returns `; scopeName, metadata and owner change` when an update changes them, else ''. */
function fieldsChanged(change: Change): string {
  const fields = (change.fieldChanges ?? []).map((field) => field.field);
  if (fields.length === 0) return '';
  const listed = fields.length === 1 ? fields[0] : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`;
  return `; ${listed} ${fields.length === 1 ? 'changes' : 'change'}`;
}

/** @returns true for an update whose only change is marking an unmarked scope (the first plan after upgrading). */
export function onlyMarksOwner(change: Change): boolean {
  const fields = change.fieldChanges ?? [];
  const [only] = fields;
  // A marker removed outside is drift (its own section), not a first marking.
  if (change.kind !== 'update' || change.origin !== undefined || fields.length !== 1 || only?.field !== 'owner' || only.before !== null) return false;
  const { added, removed } = domainDelta(change);
  return added.length === 0 && removed.length === 0;
}

/** Longest value shown in a field line; longer metadata is cut (the plan JSON has it whole). */
const MAX_VALUE_CHARS = LIVE_VALUE_CHARS;

/**
 * @returns one line per changed field: `scopeName: "Acme" → "Acme Engineering"`. Values are
 *   JSON, so control characters and quotes from the service are escaped, never interpreted.
 */
export function fieldLines(change: Change): string[] {
  return (change.fieldChanges ?? []).map((field: FieldChange) => (field.field === 'owner' ? ownerLine(field, change.movedFrom) : `${field.field}: ${shownValue(field.before)} → ${shownValue(field.after)}`));
}

/** @returns `owner: none → "default" (marks the scope as managed here)`, or the take-over of another owner's scope. */
function ownerLine(field: FieldChange, movedFrom: string | undefined): string {
  if (movedFrom !== undefined) return `owner: ${shownValue(field.before)} → ${shownValue(field.after)} (moved from ${movedFrom})`;
  if (field.before === null) return `owner: none → ${shownValue(field.after)} (marks the scope as managed here)`;
  if (field.before === DEFAULT_OWNER) return `owner: ${shownValue(field.before)} → ${shownValue(field.after)} (re-marks a scope written from this history before the project file set its owner)`;
  return `owner: ${shownValue(field.before)} → ${shownValue(field.after)} (takes the scope over from another owner: --take-ownership)`;
}

/** @returns `2 scopes no policy file declares are not managed here …`, or null when there are none. */
export function notManagedLine(plan: Pick<Plan, 'notManagedHere'>): string | null {
  const count = plan.notManagedHere.length;
  if (count === 0) return null;
  return (
    `${plural(count, 'scope')} no policy file declares ${count === 1 ? 'is' : 'are'} not managed here (another owner's ownership marker, or none): ` +
    'not cleared; --take-ownership TYPE/ID clears one.'
  );
}

/**
 * @returns `Written from a commit this checkout does not contain: team/a (commit 1a2b3c4d5e6f), …`:
 *   the scopes apply refuses unless --allow-behind names them; null when none
 */
export function behindLine(plan: Pick<Plan, 'behind'>): string | null {
  const behind = plan.behind ?? [];
  if (behind.length === 0) return null;
  const shown = behind.slice(0, 20).map((scope) => `${escapeControls(scope.key)} (commit ${escapeControls(shortCommit(scope.commit))}${scope.missing === true ? ', not in this shallow clone: fetch-depth: 0' : ''})`);
  const more = behind.length > shown.length ? `, and ${behind.length - shown.length} more` : '';
  return `Written from a commit this checkout does not contain (behind the last apply, or another history): ${shown.join(', ')}${more}; apply refuses unless --allow-behind TYPE/ID names each.`;
}

/** @returns `team/a: owner "infra"` or `team/a: no ownership marker`, then the removing commit when known. */
export function notManagedEntry(entry: NotManagedHere, own?: string): string {
  const marker = entry.owner === null ? 'no ownership marker' : `owner ${shownValue(entry.owner)}${ownerLookalikeNote(entry.owner, own)}`;
  const owner = entry.commit === undefined ? marker : `${marker}, written from commit ${escapeControls(shortCommit(entry.commit))}, not in this history`;
  const removal = removalLine(entry);
  return `${escapeControls(entry.key)}: ${owner}${removal === null ? '' : `; ${removal}`}`;
}

/** @returns `N of the updates only mark the owner …` when some do, else null. */
export function ownerOnlyLine(plan: Pick<Plan, 'changes'>): string | null {
  const count = plan.changes.filter(onlyMarksOwner).length;
  if (count === 0) return null;
  return `${count} of the updates only mark the owner: scopes without an ownership marker yet (created outside this tool, imported, or written before markers existed); apply marks them (docs/ownership-pruning-drift.md).`;
}

/**
 * @returns what apply sends besides the domains that {@link fieldLines} does not show: on a create,
 *   the name and metadata; on an update, metadata that stays as it is (sent again, unchanged)
 */
export function sentFieldLines(change: Change): string[] {
  if (change.kind === 'clear') return [];
  const changed = new Set((change.fieldChanges ?? []).map((field) => field.field));
  // An update's unchanged name is in its header already; its metadata is nowhere else.
  const candidates = change.kind === 'create' ? (['scopeName', 'metadata'] as const) : (['metadata'] as const);
  const fields = candidates.filter((field) => change[field] !== undefined && !changed.has(field));
  return fields.map((field) => `${field}: ${shownValue(change[field])}${change.kind === 'create' ? '' : ' (unchanged)'}`);
}

function shownValue(value: unknown): string {
  // JSON escapes C0 controls only: C1 controls (U+009B is a CSI) and bidi overrides need escapeControls.
  const text = escapeControls(redactText(value === undefined ? 'null' : JSON.stringify(value)));
  // Redacted whole before the cut: a secret the cut would split is never shown in part.
  return cutText(text, MAX_VALUE_CHARS);
}

/** @returns `; 12 joined through it` for a clear whose invitation has accepts, else ''. */
function joinedThrough(change: Change): string {
  const accepts = change.autojoin?.acceptsCount ?? 0;
  return accepts > 0 ? `; ${accepts} ${accepts === 1 ? 'person' : 'people'} joined through it` : '';
}

/**
 * The change as diff lines, merged in domain order so a renamed domain's `-` and `+`
 * sit next to each other.
 * @param context also list the unchanged domains, with a space sign.
 * @param delta the change's domain delta, when the caller has it already
 */
export function domainLines(change: Change, context: boolean, delta: DomainDelta = domainDelta(change)): DomainLine[] {
  const removed = new Set(delta.removed);
  const added = new Set(delta.added);
  const lines: DomainLine[] = [];
  for (const domain of new Set([...change.before, ...change.after])) {
    if (removed.has(domain)) lines.push({ sign: '-', domain });
    else if (added.has(domain)) lines.push({ sign: '+', domain });
    else if (context) lines.push({ sign: ' ', domain });
  }
  const why = new Map((change.removalReasons ?? []).map((removal) => [removal.domain, removal.reason]));
  const shown = (line: DomainLine): string => {
    const reason = line.sign === '-' ? why.get(line.domain) : undefined;
    return reason === undefined ? showDomain(line.domain) : `${showDomain(line.domain)}  (${escapeControls(reason)})`;
  };
  return lines.sort((a, b) => compareStrings(a.domain, b.domain)).map((line) => ({ ...line, domain: shown(line) }));
}

/** @returns `N to create, N to update, N to clear, N unchanged.` */
export function summaryLine(summary: PlanSummary): string {
  return `${summary.create} to create, ${summary.update} to update, ${summary.clear} to clear, ${summary.unchanged} unchanged.`;
}

/** A plan's counts (`has-changes`' neighbours among the action's outputs, the job summary's line). */
export function planCounts(plan: Pick<Plan, 'changes' | 'scopes'>): PlanSummary {
  return summarize(plan);
}

/** {@link summaryLine} of a plan. */
export function planSummaryLine(plan: Pick<Plan, 'changes' | 'scopes'>): string {
  return summaryLine(summarize(plan));
}

/**
 * @param scopeCount the scopes that match their policy files (the plan's scopes less those kept as
 *   changed outside)
 * @param kept the scopes changed outside this repository that `drift: keep` leaves as they are live
 * @returns `No changes. N scopes match their policy files.`, or, when scopes were kept as changed
 *   outside, `No changes to write. …; K kept as changed outside (drift: keep).`: they do not match
 */
export function noChangesLine(scopeCount: number, kept = 0): string {
  const matching = scopeCount === 1 ? '1 scope matches its policy file' : `${scopeCount} scopes match their policy files`;
  return kept === 0 ? `No changes. ${matching}.` : `No changes to write. ${matching}; ${kept} kept as changed outside (drift: keep).`;
}

/** @returns the header line of a plan made against the embedded emulator, else null. */
export function targetLine(plan: Pick<Plan, 'target'>): string | null {
  return plan.target === EMBEDDED_TARGET
    ? 'Target: the embedded emulator (its state file is named on stderr), not an Invitation Service; set AUTOJOIN_BASE_URL for a real one.'
    : null;
}

/** Longest commit subject shown; the plan JSON keeps the whole line. */
const SUBJECT_CHARS = 100;

/**
 * @returns `removed by 1a2b3c4d5e6f (2025-01-02) "Retire acme-old"` for a scope pruned from
 *   git history, else null. Control characters of the subject are dropped (it reaches terminals);
 *   bidi, zero-width and other format characters are shown escaped (`\u{202e}`), never raw.
 */
export function removalLine(change: Pick<Change, 'removedBy'>): string | null {
  const by = change.removedBy;
  if (!by) return null;
  // eslint-disable-next-line no-control-regex
  const clean = escapeControls(redactText(by.subject).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim());
  const subject = cutText(clean, SUBJECT_CHARS);
  return `removed by ${by.commit} (${by.date.slice(0, 10)}) "${subject}"`;
}

/** Which side moved a scope, in words: the drift section's labels. */
export const ORIGIN_LABEL: Record<'drift' | 'conflict', string> = {
  drift: 'drift: changed outside this repository',
  conflict: 'conflict: changed here and outside this repository',
};

/** What a scope lost outside, as the drift section says it; the next write restores it. */
const LOST: Record<NonNullable<OutsideChange['lost']>, string> = {
  marker: 'marker removed outside this repository',
  // The service keeps nothing of a scope whose write never landed (a refused or targeted apply): say so too.
  invitation: 'autojoin invitation revoked or deleted outside this repository (or a write from here never landed)',
};

/**
 * @returns `outside: +x.com -b.com; scopeName "A" → "B"; modified 2026-11-20T10:00:00Z`: what was
 *   changed outside, from the state last applied to the live state
 */
export function outsideLine(outside: OutsideChange): string {
  const domains = [...outside.added.map((domain) => `+${showDomain(domain)}`), ...outside.removed.map((domain) => `-${showDomain(domain)}`)];
  const fields = outside.fields.map((field) => `${field.field} ${shownValue(field.before)} → ${shownValue(field.after)}`);
  const modified = outside.modifiedAt ? [`modified ${escapeControls(outside.modifiedAt)}`] : [];
  const lost = outside.lost ? [LOST[outside.lost]] : [];
  return `outside: ${[...lost, domains.join(' '), ...fields, ...modified].filter((part) => part !== '').join('; ')}`;
}

/** @returns what apply does with a drifted or conflicting change (drift: revert, or keep's merge). */
export function driftAction(change: Change): string {
  return change.origin === 'drift' ? 'apply restores the files\' state (drift: revert)' : 'apply writes the files\' change';
}

/** @returns `team/c: kept as it is live (drift: keep); outside: …; adopt writes it into path:line`. */
export function keptEntry(report: DriftReport): string {
  const where = report.source ? ` into ${escapeControls(`${report.source.file}:${report.source.line}`)}` : '';
  return `${escapeControls(report.key)}: ${report.origin === 'conflict' ? 'conflict, ' : ''}kept as it is live (drift: keep); ${outsideLine(report.outside)}; \`autojoin-sync adopt\` writes it${where}`;
}

/** @returns `2 scopes (1 conflict); 1 kept as it is live; …adopt…`, or null when none was changed outside. */
export function driftSummaryLine(plan: Pick<Plan, 'changes' | 'drift'>): string | null {
  const moved = plan.changes.filter((change) => change.origin !== undefined);
  const total = moved.length + plan.drift.length;
  if (total === 0) return null;
  const conflicts = [...moved, ...plan.drift].filter((entry) => entry.origin === 'conflict').length;
  const kept = plan.drift.length > 0 ? `; ${plan.drift.length} kept as ${plan.drift.length === 1 ? 'it is' : 'they are'} live` : '';
  return `${plural(total, 'scope')}${conflicts > 0 ? ` (${plural(conflicts, 'conflict')})` : ''}${kept}, measured from the state this repository last applied; \`autojoin-sync adopt\` writes the live state into the policy files.`;
}

/**
 * @returns why a drifted scope was not adopted (`NotAdopted`, src/reconcile/adopt-drift.ts), in words
 * @param name a file as the plan names it, as it is to be shown (the CLI: from the working directory, src/render/shown-here.ts)
 */
export function notAdoptedReason(entry: { source: SourcePos; refusal?: Diagnostic }, name: (file: string) => string = (file) => file): string {
  if (entry.refusal === undefined) return `its metadata changed outside; metadata is not adopted (edit ${name(entry.source.file)}:${entry.source.line} by hand)`;
  const [refusal = entry.refusal] = renamedDiagnostics([entry.refusal], name);
  return `the file would not pass validate: ${formatDiagnostic(refusal)}; nothing was written for this scope`;
}
