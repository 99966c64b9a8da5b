/**
 * `plan --changed-since REV` reads only the changed policy files, but a rule that counts across
 * files (`maxScopesPerDomain`) is decided over every file (design.md, "One verdict"): the whole
 * tree is read offline (no service call) when such a rule is configured, its count replaces the
 * changed files' own, and the scopes an error-level counting rule matches are named, so the plan
 * reads their live state into its census (Plan.census) and `apply --plan` reads them again.
 */
import { compareDiagnostics, loadPolicies } from '../policy/index.js';
import { compileRules, ruleApplies } from '../policy/rules.js';
import type { LoadResult, Rule } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import type { MakePlanOptions } from './plan-options.js';

/** The count of every policy file, in place of the changed files' own. */
export interface CountedLoad {
  load: LoadResult;
  /** The scopes, declared by any file, that an error-level counting rule matches (sorted). */
  counted: ScopeKey[];
}

/** @returns the changed files' load with the counting rules' findings over every file; `changed` as it is without such a rule */
export async function countOverEveryFile(changed: LoadResult, options: Pick<MakePlanOptions, 'settings' | 'secrets'>): Promise<CountedLoad> {
  const { base: cwd, project, roots, paths, today } = options.settings;
  const counting = (project.rules ?? []).filter((rule) => rule.maxScopesPerDomain !== undefined);
  if (counting.length === 0) return { load: changed, counted: [] };
  const every = await loadPolicies(paths, { cwd, project, roots, rules: true, secrets: options.secrets, ...(today === undefined ? {} : { today }) });
  const isCount = (diagnostic: { code?: string }): boolean => diagnostic.code === 'rule-max-scopes';
  const diagnostics = [...changed.diagnostics.filter((diagnostic) => !isCount(diagnostic)), ...every.diagnostics.filter(isCount)].sort(compareDiagnostics);
  return { load: { ...changed, diagnostics }, counted: countedScopes(every.policies.map((policy) => policy.key), counting) };
}

/** @returns the keys an error-level counting rule applies to */
function countedScopes(keys: readonly ScopeKey[], rules: readonly Rule[]): ScopeKey[] {
  const { compiled } = compileRules(rules.filter((rule) => (rule.level ?? 'error') === 'error'));
  return keys.filter((key) => compiled.some((rule) => ruleApplies(rule, key))).sort();
}
