import pc from 'picocolors';
import type { Change, ChangeKind, Plan } from '../plan/types.js';
import { scopeLabel } from './describe.js';
import { changeView, planView, type PlanView } from './view.js';
import { DECLARED_OUTSIDE_SHOWN, declaredOutsideLines } from './declared-outside.js';
import { renderProjects } from './projects-text.js';

/** Options of the terminal renderer; the caller decides colour (NO_COLOR, TTY). */
export interface TextOptions {
  color: boolean;
  /** Also list the scopes not managed here, one line each (else only their count). */
  verbose?: boolean;
}

type Paint = (text: string) => string;

interface Palette {
  kind: Record<ChangeKind, Paint>;
  added: Paint;
  removed: Paint;
  bold: Paint;
}

function palette(color: boolean): Palette {
  const colors = pc.createColors(color);
  return {
    kind: { create: colors.green, update: colors.yellow, clear: colors.red },
    added: colors.green,
    removed: colors.red,
    bold: colors.bold,
  };
}

/**
 * Renders a plan for a terminal: a header per changed scope, a `+`/`-` line per domain
 * added or removed, and the summary as the last line.
 * @returns the text, ending in a newline.
 */
export function renderText(plan: Plan, options: TextOptions): string {
  // A plan of several projects: a section per project, then one summary (projects-text.ts).
  if (plan.projects !== undefined) return renderProjects(plan, (part) => renderText(part, options), palette(options.color).bold);
  const view = planView(plan);
  const paint = palette(options.color);
  const head = view.target === null ? '' : `${view.target}\n\n`;
  const outside = declaredOutsideLines(plan, options.verbose === true ? undefined : DECLARED_OUTSIDE_SHOWN).map((line, index) => (index === 0 ? `${line}\n` : `    ${line}\n`));
  const tail = ownershipLines(view, options.verbose === true) + outside.join('');
  const drift = driftSection(plan, view, paint);
  if (plan.changes.length === 0) return `${head}${drift}${view.counts}\n${tail}`;
  const own = plan.changes.filter((change) => change.origin === undefined).map((change) => renderChange(change, paint));
  return `${head}${own.length > 0 ? `${own.join('\n\n')}\n\n` : ''}${drift}${view.counts}\n${tail}`;
}

/** The scopes changed outside this repository, apart from its own changes; '' when there are none. */
function driftSection(plan: Plan, view: PlanView, paint: Palette): string {
  if (view.drift === null) return '';
  const moved = plan.changes.filter((change) => change.origin !== undefined).map((change) => renderChange(change, paint));
  const kept = view.drift.kept.map((entry) => `    ${entry}`);
  return `${paint.bold('Changed outside this repository')}\n${view.drift.headline}\n\n${[...moved, ...(kept.length > 0 ? [kept.join('\n')] : [])].join('\n\n')}\n\n`;
}

/** The lines after the summary: updates that only mark the owner, and the scopes not managed here. */
function ownershipLines(view: PlanView, verbose: boolean): string {
  const entries = verbose ? view.notManaged().map((entry) => `    ${entry}`) : [];
  return [...view.ownership, ...entries].map((line) => `${line}\n`).join('');
}

function renderChange(change: Change, paint: Palette): string {
  const view = changeView(change, false);
  const kindPaint = paint.kind[change.kind];
  const header = `${kindPaint(view.sign)} ${paint.bold(scopeLabel(change))}  ${kindPaint(view.detail)}`;
  const lines = view.domains.map(({ sign, domain }) =>
    `    ${(sign === '+' ? paint.added : paint.removed)(`${sign} ${domain}`)}`,
  );
  const fields = view.fields.map((line) => `    ${paint.kind.update(`~ ${line}`)}`);
  // The name and metadata sent along: `+` on a create, as its domains; plain when unchanged.
  const sent = view.sent.map((line) => `    ${change.kind === 'create' ? paint.added(`+ ${line}`) : `  ${line}`}`);
  const outside = view.origin ? [`    ${view.origin.label}; ${view.origin.action}`, `    ${view.origin.outside}`] : [];
  return [header, ...outside, ...(view.removal === null ? [] : [`    ${view.removal}`]), ...lines, ...fields, ...sent].join('\n');
}
