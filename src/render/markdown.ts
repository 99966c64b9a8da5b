import { declaredOutsideLines } from './declared-outside.js';
import type { Change, Plan } from '../plan/types.js';
import { plural } from '../text.js';
import { joinBounded } from './bounded.js';
import { escapeMarkdown, fenceFor } from '../escape.js';
import { changeView, planView, type ChangeView, type PlanView } from './view.js';
import { projectHeading, projectsInOrder } from './projects-text.js';

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
  /** A plan of several projects in a pull request: the files it changed (from the repository root); the sections of their projects come first. */
  changedFiles?: ReadonlySet<string>;
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
  const view = planView(plan);
  // A plan of several projects: a heading per project (kept whole), then its blocks as a plan of one's.
  const blocks = plan.projects === undefined ? planBlocks(plan, view) : projectsInOrder(plan, options.changedFiles).flatMap((part) => [
    { text: `#### ${escapeMarkdown(projectHeading(part))}`, rank: 0, size: Number.MAX_SAFE_INTEGER },
    ...planBlocks(part.plan, planView(part.plan)),
  ]);
  return joinBounded({
    head: renderHead(plan, view, options.title ?? 'autojoin-sync plan'),
    blocks: blocks.map((block) => block.text),
    preference: preferred(blocks),
    footer: options.footer,
    maxChars,
    omittedNote: (omitted) =>
      `_${plural(omitted, 'changed scope')} omitted here to stay under ${maxChars} characters; ` +
      'see the job summary or the full plan (`autojoin-sync plan --format json`)._',
  });
}

/** One block of the comment, with what decides whether a cut spares it. */
interface Block {
  text: string;
  /** 0 is kept first: clears, drift and conflicts (and the drift heading); then 0.5, 1, 2. */
  rank: number;
  /** Domains touched: among equal ranks, the larger change is kept first. */
  size: number;
}

/** This repository's changes, the scopes pruning leaves alone, then the drift section (its heading, then the scopes changed outside). */
function planBlocks(plan: Plan, view: PlanView): Block[] {
  const ofChange = (change: Change): Block => {
    const shown = changeView(change, true);
    return { text: renderDetails(change, shown), rank: change.origin === undefined ? CUT_RANK[change.kind] : 0, size: shown.delta.added.length + shown.delta.removed.length };
  };
  const notManaged = renderNotManaged(plan, view);
  const driftHead = renderDriftHead(view);
  return [
    ...plan.changes.filter((change) => change.origin === undefined).map(ofChange),
    ...(notManaged === null ? [] : [{ text: notManaged, rank: 0.5, size: 0 }]),
    ...declaredOutsideBlock(plan),
    ...(driftHead === null ? [] : [{ text: driftHead, rank: 0, size: Number.MAX_SAFE_INTEGER }]),
    ...plan.changes.filter((change) => change.origin !== undefined).map(ofChange),
  ];
}

function renderHead(plan: Plan, view: PlanView, title: string): string {
  const shard = plan.shard ? ` Shard ${plan.shard}.` : '';
  const heading = `### ${title}\n\n${view.target === null ? '' : `:warning: ${escapeMarkdown(view.target)}\n\n`}`;
  // Updates that only mark the owner, and how many scopes pruning leaves alone, each as a paragraph.
  const notes = view.ownership.map((line) => `\n\n${escapeMarkdown(line)}`).join('');
  if (view.summary === null) return `${heading}${view.counts}${shard}${notes}`;
  return `${heading}**${view.counts}** Domains: +${view.summary.domainsAdded} -${view.summary.domainsRemoved}.${shard}${notes}`;
}

/** @returns the drift section's heading with the scopes kept as they are live, or null when nothing changed outside. */
function renderDriftHead(view: PlanView): string | null {
  if (view.drift === null) return null;
  const kept = view.drift.kept.map((entry) => `- ${escapeMarkdown(entry)}`);
  return `#### Changed outside this repository\n\n${escapeMarkdown(view.drift.headline)}${kept.length > 0 ? `\n\n${kept.join('\n')}` : ''}`;
}

/** Most scopes listed by name in the "not managed here" block; the plan JSON lists them all. */
const NOT_MANAGED_SHOWN = 50;

/** @returns the scopes pruning leaves alone, as an open `<details>` list (at most 50 named), or null when there are none. */
function renderNotManaged(plan: Plan, view: PlanView): string | null {
  if (plan.notManagedHere.length === 0) return null;
  const shown = view.notManaged(NOT_MANAGED_SHOWN).map((entry) => `- ${escapeMarkdown(entry)}`);
  const more = plan.notManagedHere.length - shown.length;
  const rest = more > 0 ? `\n- …and ${more} more (the plan JSON lists them all)` : '';
  return `<details open><summary>Not managed here: ${plan.notManagedHere.length} (not cleared)</summary>\n\n${shown.join('\n')}${rest}\n\n</details>`;
}

/** The scopes a file outside the paths keeps from pruning, as an open `<details>` list (at most 50 named). */
function declaredOutsideBlock(plan: Plan): { text: string; rank: number; size: number }[] {
  const [headline, ...entries] = declaredOutsideLines(plan, NOT_MANAGED_SHOWN);
  if (headline === undefined) return [];
  const list = entries.map((entry) => `- ${escapeMarkdown(entry)}`).join('\n');
  return [{ text: `<details open><summary>${escapeMarkdown(headline)}</summary>\n\n${list}\n\n</details>`, rank: 0.5, size: 0 }];
}

function renderDetails(change: Change, view: ChangeView): string {
  const body = view.domains.map(({ sign, domain }) => `${sign} ${domain}`).join('\n');
  const fence = fenceFor(body);
  const name = change.scopeName ? ` (${escapeMarkdown(change.scopeName)})` : '';
  // Clears open by default: the destructive change is the one a reviewer must not miss.
  const open = change.kind === 'clear' ? ' open' : '';
  const summary = `<code>${view.sign}</code> <b>${escapeMarkdown(change.key)}</b>${name} — ${view.detail}`;
  return `<details${open}><summary>${summary}</summary>\n\n${originLines(view)}${sourceLine(change, view)}${fieldList(change, view)}${fence}diff\n${body}\n${fence}\n\n</details>`;
}

/** For a scope changed outside: which side moved it, what apply does, and what changed outside. */
function originLines(view: ChangeView): string {
  if (view.origin === null) return '';
  return `**${escapeMarkdown(view.origin.label)}**; ${escapeMarkdown(view.origin.action)}.\n\n${escapeMarkdown(view.origin.outside)}\n\n`;
}

/**
 * The GitHub caution block over a plan that a later apply would refuse (a safety limit), as the
 * pull-request comment and `plan --format markdown` show it; '' when there is nothing to say.
 */
export function unsafeMarkdown(messages: readonly string[], exitCode = 3): string {
  if (messages.length === 0) return '';
  const items = messages.map((message) => `> - ${escapeMarkdown(message)}`).join('\n');
  return `> [!CAUTION]\n> **apply would refuse this plan** (exit code ${exitCode}):\n${items}\n\n`;
}

/** The name and metadata changes as a list, old → new, escaped like every other text from files and the service. */
function fieldList(change: Change, view: ChangeView): string {
  const sent = view.sent.map((line) => (change.kind === 'create' ? `sent: ${line}` : line));
  const lines = [...view.fields, ...sent];
  return lines.length === 0 ? '' : `${lines.map((line) => `- ${escapeMarkdown(line)}`).join('\n')}\n\n`;
}

/** Where the change comes from, so a reviewer can jump to the file: `Declared in path:line.` */
function sourceLine(change: Change, view: ChangeView): string {
  if (!change.source) return '';
  const where = escapeMarkdown(`${change.source.file}:${change.source.line}`);
  if (change.reason !== 'pruned') return `Declared in ${where}.\n\n`;
  const removal = view.removal;
  if (removal === null) return `Policy file deleted (it was ${where} at the --prune-from revision).\n\n`;
  return `No policy file declares this scope any more (it was ${where}); ${escapeMarkdown(removal)}.\n\n`;
}

/** How much a cut spares a kind of change: clears are never cut before an update or a create. */
const CUT_RANK: Record<Change['kind'], number> = { clear: 0, update: 1, create: 2 };

/** Indices of the blocks, most wanted first: by rank, then most domains touched; ties keep plan order. */
function preferred(blocks: readonly Block[]): number[] {
  const ranked = blocks.map((block, index) => ({ ...block, index }));
  ranked.sort((a, b) => a.rank - b.rank || b.size - a.size || a.index - b.index);
  return ranked.map((block) => block.index);
}
