/**
 * Whatever a run writes passes the same checks as a policy file (README, "Drift"): the domain
 * checks (syntax, webmail, public suffixes, homographs) and the project file's rules at `error`
 * level, whichever path built the list (a conflict merged under `drift: keep`, a take-over, a
 * saved plan). The files' own lists passed them when they were loaded; a list built from live
 * state did not, so every list a plan writes is checked again before anything is written. The
 * rules that speak of file entries (`requireExpiry`, `maxExpiryDays`) or of every scope at once
 * (`maxScopesPerDomain`) stay with the loader. Pure: no I/O.
 */
import { checkDomain } from '../policy/domains.js';
import { checkRules, compileRules } from '../policy/rules.js';
import type { Rule } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import type { Change } from './types.js';

/** One written domain (or list) that would not pass as a policy file. */
export interface WriteProblem {
  key: ScopeKey;
  /** The check's code, as validate names it (`public-suffix`, `rule-deny`, …). */
  check: string;
  message: string;
}

/**
 * @param rules the project file's rules (only `error`-level ones refuse)
 * @returns the problems of every list `changes` would write, in change order
 */
export function writeProblems(changes: readonly Change[], rules: readonly Rule[] | undefined, today: string): WriteProblem[] {
  const listRules = (rules ?? []).filter((rule) => (rule.level ?? 'error') === 'error').map(({ requireExpiry: _e, maxExpiryDays: _d, maxScopesPerDomain: _m, ...rule }) => rule);
  const { compiled } = compileRules(listRules);
  const problems: WriteProblem[] = [];
  for (const change of changes) {
    if (change.after.length === 0) continue;
    for (const domain of change.after) {
      const finding = checkDomain(domain).find((found) => found.severity === 'error');
      if (finding) problems.push({ key: change.key, check: finding.code, message: finding.message });
    }
    const subject = { key: change.key, entries: change.after.map((domain, index) => ({ domain, index })), at: () => ({ file: change.key, line: 1, column: 1 }) };
    for (const finding of checkRules(compiled, subject, today)) {
      if (finding.severity === 'error') problems.push({ key: change.key, check: finding.code, message: finding.message });
    }
  }
  return problems;
}
