/**
 * The loader's hook into the rules: one policy at a time as its file is checked, then what
 * needs them all (maxScopesPerDomain, and scope globs that match nothing) once every file is in.
 */
import type { Diagnostic, Rule } from './types.js';
import type { ScopeKey } from '../scope.js';
import { checkRules, compileRules, createScopeCounter, unmatchedScopeGlobs, type RuleSubject } from './rules.js';

export interface Governance {
  /** @returns the findings about one policy */
  check(subject: RuleSubject): Diagnostic[];
  /**
   * @param keys every scope the policy files declare
   * @returns the findings that need every policy
   */
  finish(keys: readonly ScopeKey[]): Diagnostic[];
}

/**
 * @param rules the project file's rules (their globs were checked when it was loaded)
 * @param options.complete the files are all the paths hold (not a --changed-since subset), so a
 *   scope glob that matches none of their scopes matches nothing
 * @returns null without rules: nothing to check
 */
export function createGovernance(rules: readonly Rule[] | undefined, options: { today: string; complete: boolean }): Governance | null {
  if (!rules || rules.length === 0) return null;
  const { compiled } = compileRules(rules);
  const counter = createScopeCounter(compiled);
  return {
    check(subject) {
      counter.add(subject);
      return checkRules(compiled, subject, options.today);
    },
    finish(keys) {
      return [...counter.findings(), ...(options.complete ? unmatchedScopeGlobs(compiled, keys) : [])];
    },
  };
}
