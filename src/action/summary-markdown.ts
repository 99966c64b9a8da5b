/**
 * The action's own markdown around the renderers of src/render: titles, the comment's footer
 * (link to the run, hidden marker), and the blocks for a failed load or for a plan a safety
 * limit would refuse. Changes themselves are only ever rendered by src/render.
 */
import { formatDiagnostic } from '../render/diagnostics.js';
import type { Diagnostic } from '../policy/types.js';
import { escapeMarkdown } from '../render/index.js';
import { fenceFor } from '../escape.js';

/** A step summary may hold 1 MiB; characters can take several bytes. */
export const SUMMARY_MAX_CHARS = 500_000;

/** @returns `autojoin-sync plan`, naming the paths unless it is the whole repository. */
export function planTitle(paths: readonly string[], verb = 'plan'): string {
  const whole = paths.length === 1 && paths[0] === '.';
  return whole ? `autojoin-sync ${verb}` : `autojoin-sync ${verb}: ${paths.map(escapeMarkdown).join(', ')}`;
}

/** @returns the comment's last lines: where the full plan is, and the hidden marker. */
export function commentFooter(marker: string, runUrl: string | undefined): string {
  const where = runUrl ? `[job summary](${runUrl})` : 'job summary of this run';
  return `<sub>Full plan and plan JSON: ${where}.</sub>\n${marker}`;
}

/**
 * @param counted lines counting the warnings already left out (pr-findings.ts), shown after the list
 * @returns every problem found in the policy files, one `file:line:col: severity: message` line
 * each, as many as fit in `maxChars`, then how many were left out.
 */
export function diagnosticsMarkdown(title: string, headline: string, diagnostics: readonly Diagnostic[], maxChars: number, counted: readonly string[] = []): string {
  const head = `### ${title}\n\n:x: **${escapeMarkdown(headline)}**\n`;
  if (diagnostics.length === 0) return head;
  const all = [...diagnostics.map(formatDiagnostic), ...counted];
  const fence = fenceFor(all.join('\n'));
  let budget = maxChars - head.length - 2 * fence.length - 120;
  const shown: string[] = [];
  for (const line of all) {
    if (line.length + 1 > budget) break;
    shown.push(line);
    budget -= line.length + 1;
  }
  const more = all.length - shown.length;
  const note = more > 0 ? `\n_${more} more not shown here; the step log lists them all._\n` : '';
  return `${head}\n${fence}text\n${shown.join('\n')}\n${fence}\n${note}`;
}

/** The caution block lives with the markdown renderer: `plan --format markdown` shows it too. */
export { unsafeMarkdown } from '../render/markdown.js';
