import type { Change, Plan } from '../plan/types.js';
import { plural } from '../text.js';
import { joinBounded } from './bounded.js';
import {
  changeDetail,
  domainLines,
  fieldLines,
  sentFieldLines,
  KIND_SIGN,
  noChangesLine,
  notManagedEntry,
  notManagedLine,
  ownerOnlyLine,
  removalLine,
  summaryLine,
  targetLine,
} from './describe.js';
import { escapeMarkdown, fenceFor } from './escape.js';

/** GitHub refuses comment bodies over 65,536 characters; a plan comment stays well under it. */
export const COMMENT_MAX_CHARS = 60_000;

/** Options of the markdown renderer (PR comment, job summary). */
export interface MarkdownOptions {
  /** The result never exceeds this many characters (default 60,000). */
  maxChars?: number;
  /** Heading text (default `autojoin-sync plan`); markdown, not escaped. */
  title?: string;
  /** Appended last, e.g. a hidden marker for a sticky comment; markdown, not escaped. */
  footer?: string;
}

/**
 * Renders a plan as markdown: the summary first, then a `<details>` per changed scope
 * holding a `diff` fence, then the scopes not managed here. When the whole would exceed
 * `maxChars`, the destructive blocks are kept whole (every clear, and the scopes pruning leaves
 * alone), then the largest updates, then the largest creates that fit, and a line says how
 * many scopes were left out.
 */
export function renderMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? COMMENT_MAX_CHARS;
  const notManaged = renderNotManaged(plan);
  return joinBounded({
    head: renderHead(plan, options.title ?? 'autojoin-sync plan'),
    blocks: [...plan.changes.map(renderDetails), ...(notManaged === null ? [] : [notManaged])],
    preference: preferred(plan.changes, notManaged !== null),
    footer: options.footer,
    maxChars,
    omittedNote: (omitted) =>
      `_${plural(omitted, 'changed scope')} omitted here to stay under ${maxChars} characters; ` +
      'see the job summary or the full plan (`autojoin-sync plan --format json`)._',
  });
}

function renderHead(plan: Plan, title: string): string {
  const shard = plan.shard ? ` Shard ${plan.shard}.` : '';
  const target = targetLine(plan);
  const heading = `### ${title}\n\n${target === null ? '' : `:warning: ${escapeMarkdown(target)}\n\n`}`;
  if (plan.changes.length === 0) return `${heading}${noChangesLine(plan.scopes.length)}${shard}${ownershipNotes(plan)}`;
  const { domainsAdded, domainsRemoved } = plan.summary;
  return `${heading}**${summaryLine(plan.summary)}** Domains: +${domainsAdded} -${domainsRemoved}.${shard}${ownershipNotes(plan)}`;
}

/** Updates that only mark the owner, and how many scopes pruning leaves alone, each as a paragraph. */
function ownershipNotes(plan: Plan): string {
  const lines = [ownerOnlyLine(plan), notManagedLine(plan)].filter((line) => line !== null);
  return lines.map((line) => `\n\n${escapeMarkdown(line)}`).join('');
}

/** Most scopes listed by name in the "not managed here" block; the plan JSON lists them all. */
const NOT_MANAGED_SHOWN = 50;

/** @returns the scopes pruning leaves alone, as an open `<details>` list (at most 50 named), or null when there are none. */
function renderNotManaged(plan: Plan): string | null {
  if (plan.notManagedHere.length === 0) return null;
  const shown = plan.notManagedHere.slice(0, NOT_MANAGED_SHOWN).map((entry) => `- ${escapeMarkdown(notManagedEntry(entry))}`);
  const more = plan.notManagedHere.length - shown.length;
  const rest = more > 0 ? `\n- …and ${more} more (the plan JSON lists them all)` : '';
  return `<details open><summary>Not managed here: ${plan.notManagedHere.length} (not cleared)</summary>\n\n${shown.join('\n')}${rest}\n\n</details>`;
}

function renderDetails(change: Change): string {
  const body = domainLines(change, true).map(({ sign, domain }) => `${sign} ${domain}`).join('\n');
  const fence = fenceFor(body);
  const name = change.scopeName ? ` (${escapeMarkdown(change.scopeName)})` : '';
  // Clears open by default: the destructive change is the one a reviewer must not miss.
  const open = change.kind === 'clear' ? ' open' : '';
  const summary = `<code>${KIND_SIGN[change.kind]}</code> <b>${escapeMarkdown(change.key)}</b>${name} — ${changeDetail(change)}`;
  return `<details${open}><summary>${summary}</summary>\n\n${sourceLine(change)}${fieldList(change)}${fence}diff\n${body}\n${fence}\n\n</details>`;
}

/**
 * The GitHub caution block over a plan that a later apply would refuse (a safety limit), as the
 * pull-request comment and `plan --format markdown` show it; '' when there is nothing to say.
 */
export function unsafeMarkdown(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  const items = messages.map((message) => `> - ${escapeMarkdown(message)}`).join('\n');
  return `> [!CAUTION]\n> **apply would refuse this plan** (exit code 3):\n${items}\n\n`;
}

/** The name and metadata changes as a list, old → new, escaped like every other text from files and the service. */
function fieldList(change: Change): string {
  const sent = sentFieldLines(change).map((line) => (change.kind === 'create' ? `sent: ${line}` : line));
  const lines = [...fieldLines(change), ...sent];
  return lines.length === 0 ? '' : `${lines.map((line) => `- ${escapeMarkdown(line)}`).join('\n')}\n\n`;
}

/** Where the change comes from, so a reviewer can jump to the file: `Declared in path:line.` */
function sourceLine(change: Change): string {
  if (!change.source) return '';
  const where = escapeMarkdown(`${change.source.file}:${change.source.line}`);
  if (change.reason !== 'pruned') return `Declared in ${where}.\n\n`;
  const removal = removalLine(change);
  if (removal === null) return `Policy file deleted (it was ${where} at the --prune-from revision).\n\n`;
  return `No policy file declares this scope any more (it was ${where}); ${escapeMarkdown(removal)}.\n\n`;
}

/** How much a cut spares a kind of change: clears are never cut before an update or a create. */
const CUT_RANK: Record<Change['kind'], number> = { clear: 0, update: 1, create: 2 };

/**
 * Indices of the blocks, most wanted first: every clear, then the "not managed here" block (the
 * last block, when there is one), then updates, then creates, each most domains touched first;
 * ties keep plan order.
 */
function preferred(changes: readonly Change[], notManaged: boolean): number[] {
  const size = (change: Change | undefined): number => (change ? change.added.length + change.removed.length : 0);
  const rank = (index: number): number => {
    const change = changes[index];
    if (change === undefined) return 0.5; // the not-managed block: after the clears, before the updates
    return CUT_RANK[change.kind];
  };
  const indices = changes.map((_, index) => index);
  if (notManaged) indices.push(changes.length);
  return indices.sort((a, b) => rank(a) - rank(b) || size(changes[b]) - size(changes[a]) || a - b);
}
