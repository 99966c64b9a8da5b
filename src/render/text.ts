import pc from 'picocolors';
import type { Change, ChangeKind, Plan } from '../plan/types.js';
import { summarize } from '../plan/derived.js';
import {
  changeDetail,
  domainLines,
  driftAction,
  driftSummaryLine,
  keptEntry,
  ORIGIN_LABEL,
  outsideLine,
  fieldLines,
  sentFieldLines,
  KIND_SIGN,
  noChangesLine,
  notManagedEntry,
  notManagedLine,
  ownerOnlyLine,
  removalLine,
  scopeLabel,
  summaryLine,
  targetLine,
} from './describe.js';

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
  const target = targetLine(plan);
  const head = target === null ? '' : `${target}\n\n`;
  const tail = ownershipLines(plan, options.verbose === true);
  const drift = driftSection(plan, palette(options.color));
  if (plan.changes.length === 0) return `${head}${drift}${noChangesLine(plan.scopes.length)}\n${tail}`;
  const paint = palette(options.color);
  const own = plan.changes.filter((change) => change.origin === undefined).map((change) => renderChange(change, paint));
  return `${head}${own.length > 0 ? `${own.join('\n\n')}\n\n` : ''}${drift}${summaryLine(summarize(plan))}\n${tail}`;
}

/** The scopes changed outside this repository, apart from its own changes; '' when there are none. */
function driftSection(plan: Plan, paint: Palette): string {
  const headline = driftSummaryLine(plan);
  if (headline === null) return '';
  const moved = plan.changes.filter((change) => change.origin !== undefined).map((change) => renderChange(change, paint));
  const kept = plan.drift.map((report) => `    ${keptEntry(report)}`);
  return `${paint.bold('Changed outside this repository')}\n${headline}\n\n${[...moved, ...(kept.length > 0 ? [kept.join('\n')] : [])].join('\n\n')}\n\n`;
}

/** The lines after the summary: updates that only mark the owner, and the scopes not managed here. */
function ownershipLines(plan: Plan, verbose: boolean): string {
  const notManaged = notManagedLine(plan);
  const lines = [ownerOnlyLine(plan), notManaged, ...(verbose && notManaged !== null ? plan.notManagedHere.map((entry) => `    ${notManagedEntry(entry)}`) : [])];
  return lines.filter((line) => line !== null).map((line) => `${line}\n`).join('');
}

function renderChange(change: Change, paint: Palette): string {
  const kindPaint = paint.kind[change.kind];
  const header = `${kindPaint(KIND_SIGN[change.kind])} ${paint.bold(scopeLabel(change))}  ${kindPaint(changeDetail(change))}`;
  const lines = domainLines(change, false).map(({ sign, domain }) =>
    `    ${(sign === '+' ? paint.added : paint.removed)(`${sign} ${domain}`)}`,
  );
  const removal = removalLine(change);
  const fields = fieldLines(change).map((line) => `    ${paint.kind.update(`~ ${line}`)}`);
  // The name and metadata sent along: `+` on a create, as its domains; plain when unchanged.
  const sent = sentFieldLines(change).map((line) => `    ${change.kind === 'create' ? paint.added(`+ ${line}`) : `  ${line}`}`);
  const outside = change.origin && change.outside ? [`    ${ORIGIN_LABEL[change.origin]}; ${driftAction(change)}`, `    ${outsideLine(change.outside)}`] : [];
  return [header, ...outside, ...(removal === null ? [] : [`    ${removal}`]), ...lines, ...fields, ...sent].join('\n');
}
