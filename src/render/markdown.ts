import type { Change, Plan } from '../plan/types.js';
import { plural } from '../text.js';
import { joinBounded } from './bounded.js';
import { changeDetail, domainLines, fieldLines, sentFieldLines, KIND_SIGN, noChangesLine, removalLine, summaryLine, targetLine } from './describe.js';
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
 * holding a `diff` fence. When the whole would exceed `maxChars`, the largest changes
 * that fit are kept and a line says how many scopes were left out.
 */
export function renderMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? COMMENT_MAX_CHARS;
  return joinBounded({
    head: renderHead(plan, options.title ?? 'autojoin-sync plan'),
    blocks: plan.changes.map(renderDetails),
    preference: bySize(plan.changes),
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
  if (plan.changes.length === 0) return `${heading}${noChangesLine(plan.scopes.length)}${shard}`;
  const { domainsAdded, domainsRemoved } = plan.summary;
  return `${heading}**${summaryLine(plan.summary)}** Domains: +${domainsAdded} -${domainsRemoved}.${shard}`;
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

/** Indices of the changes, most domains touched first; ties keep plan order. */
function bySize(changes: readonly Change[]): number[] {
  const size = (change: Change | undefined): number => (change ? change.added.length + change.removed.length : 0);
  return changes.map((_, index) => index).sort((a, b) => size(changes[b]) - size(changes[a]) || a - b);
}
