import pc from 'picocolors';
import type { Change, ChangeKind, Plan } from '../plan/types.js';
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
  if (plan.changes.length === 0) return `${head}${noChangesLine(plan.scopes.length)}\n${tail}`;
  const paint = palette(options.color);
  const blocks = plan.changes.map((change) => renderChange(change, paint));
  return `${head}${blocks.join('\n\n')}\n\n${summaryLine(plan.summary)}\n${tail}`;
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
  return [header, ...(removal === null ? [] : [`    ${removal}`]), ...lines, ...fields, ...sent].join('\n');
}
