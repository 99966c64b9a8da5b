/**
 * The scopes pruning leaves alone because a policy file outside the paths declares them now (a
 * file moved elsewhere, or a broken fixture naming the same scope id): the plan names each with
 * the file and line, so a deleted policy is never kept live in silence.
 */
import type { Plan } from '../plan/types.js';
import { escapeControls } from '../escape.js';
import { plural } from '../text.js';

/** How many a plan names without --verbose (the markdown comment names up to 50; the plan JSON lists them all). */
export const DECLARED_OUTSIDE_SHOWN = 5;

/** @returns `team/a: declared outside the paths in fixtures/x.autojoin.yaml:3; not pruned` */
export function declaredOutsideEntry(entry: NonNullable<Plan['declaredOutside']>[number]): string {
  return `${escapeControls(entry.key)}: declared outside the paths in ${escapeControls(entry.file)}:${entry.line}; not pruned`;
}

/**
 * @param limit how many to name (all by default)
 * @returns the headline, one line per scope named, and how many more; [] when there are none
 */
export function declaredOutsideLines(plan: Pick<Plan, 'declaredOutside'>, limit?: number): string[] {
  const all = plan.declaredOutside ?? [];
  if (all.length === 0) return [];
  const shown = all.slice(0, limit ?? all.length);
  const headline = `${plural(all.length, 'scope')} no policy file under the paths declares ${all.length === 1 ? 'is' : 'are'} declared by a file outside them: not pruned.`;
  const more = all.length - shown.length;
  return [headline, ...shown.map(declaredOutsideEntry), ...(more > 0 ? [`…and ${more} more (--verbose lists them all)`] : [])];
}
