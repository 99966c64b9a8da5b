import pc from 'picocolors';
import type { ApplyReport } from '../apply/types.js';
import { plural } from '../text.js';
import { joinBounded } from './bounded.js';
import { escapeControls, escapeMarkdown } from '../escape.js';
import { COMMENT_MAX_CHARS } from './markdown.js';

/** @returns `Applied N, failed N, skipped N.` */
export function applySummaryLine(report: ApplyReport): string {
  return `Applied ${report.applied.length}, failed ${report.failed.length}, skipped ${report.skipped.length}.`;
}

/**
 * Renders what apply did for a terminal: failures first (with the reason), then
 * skipped, then applied scopes, and the summary as the last line.
 */
export function renderApplyReportText(report: ApplyReport, options: { color: boolean }): string {
  const colors = pc.createColors(options.color);
  const lines = [
    ...report.failed.map((f) => `${colors.red('failed ')}  ${colors.bold(escapeControls(f.key))}  ${f.kind}: ${escapeControls(f.reason)}`),
    ...report.skipped.map((s) => `${colors.yellow('skipped')}  ${colors.bold(escapeControls(s.key))}  ${escapeControls(s.reason)}`),
    ...report.applied.map((a) => `${colors.green('applied')}  ${colors.bold(escapeControls(a.key))}  ${a.kind} (${plural(a.domains.length, 'domain')})`),
  ];
  return [...lines, ...(lines.length > 0 ? [''] : []), applySummaryLine(report)].join('\n') + '\n';
}

/**
 * Renders what apply did as markdown: the summary first, then one table row per scope,
 * failures first; bounded like the plan (rows that do not fit are counted in a note).
 */
export function renderApplyReportMarkdown(report: ApplyReport, options: { maxChars?: number; title?: string } = {}): string {
  const maxChars = options.maxChars ?? COMMENT_MAX_CHARS;
  const rows = [
    ...report.failed.map((f) => row(f.key, f.kind, `❌ failed: ${escapeMarkdown(f.reason)}`)),
    ...report.skipped.map((s) => row(s.key, '', `⏭️ skipped: ${escapeMarkdown(s.reason)}`)),
    ...report.applied.map((a) => row(a.key, a.kind, `✅ applied (${plural(a.domains.length, 'domain')})`)),
  ];
  const summary = `### ${options.title ?? 'autojoin-sync apply'}\n\n**${applySummaryLine(report)}**`;
  if (rows.length === 0) return `${summary}\n`;
  return joinBounded({
    head: `${summary}\n\n| scope | change | result |\n|---|---|---|`,
    blocks: rows,
    preference: rows.map((_, index) => index),
    blockSeparator: '\n',
    maxChars,
    omittedNote: (omitted) => `_${plural(omitted, 'more row')} omitted to stay under ${maxChars} characters._`,
  });
}

function row(key: string, kind: string, result: string): string {
  return `| ${escapeMarkdown(key)} | ${kind} | ${result} |`;
}
