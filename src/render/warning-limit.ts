/**
 * Warnings of one kind are shown for their first three entries, then counted in one line ("and
 * 3,997 more subdomain warnings; --verbose shows all"), so 2,000 subdomain warnings never bury
 * the one error (docs/governance.md, "Warnings"). Errors are never cut; JSON output carries every finding and
 * does not pass through here. One limiter serves a whole run, whose diagnostics may come in
 * batches (the streaming loader). Pure.
 */
import type { Diagnostic } from '../policy/types.js';
import { groupedNumber } from '../text.js';

/** Entries shown per kind of warning before the rest are counted. */
export const WARNINGS_SHOWN_PER_KIND = 3;

export interface WarningLimiter {
  /** @returns the diagnostics to print of this batch: every error, the first warnings of each kind */
  take(diagnostics: readonly Diagnostic[]): Diagnostic[];
  /** @returns one line per kind with warnings left out, in the order the kinds were first seen; then forgets them */
  summary(): string[];
}

/**
 * @param verbose show every warning (--verbose)
 * @param whereAll where the rest are, ending each count line (the action: its annotations)
 */
export function warningLimiter(verbose: boolean, whereAll = '--verbose shows all'): WarningLimiter {
  const seen = new Map<string, number>();
  return {
    take(diagnostics) {
      if (verbose) return [...diagnostics];
      return diagnostics.filter((diagnostic) => {
        if (diagnostic.severity === 'error') return true;
        const count = (seen.get(diagnostic.code) ?? 0) + 1;
        seen.set(diagnostic.code, count);
        return count <= WARNINGS_SHOWN_PER_KIND;
      });
    },
    summary() {
      const lines = [...seen]
        .filter(([, count]) => count > WARNINGS_SHOWN_PER_KIND)
        .map(([code, count]) => moreWarningsLine(code, count - WARNINGS_SHOWN_PER_KIND, whereAll));
      seen.clear();
      return lines;
    },
  };
}

/**
 * The one wording of a count of warnings left out, for validate, plan, apply, import and the
 * action alike: `and 3,997 more subdomain warnings; --verbose shows all`.
 */
export function moreWarningsLine(code: string, more: number, whereAll = '--verbose shows all'): string {
  return `and ${groupedNumber(more)} more ${code} ${more === 1 ? 'warning' : 'warnings'}; ${whereAll}`;
}
