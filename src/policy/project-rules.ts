/**
 * The `rules:` of the project file, checked when the file is loaded: each glob must compile and
 * each rule must check something, else it is an error at its place in the project file (a rule
 * that cannot match anything is a mistake, not a no-op). Rules that pass carry their places, so
 * a `scopes` glob that matches no declared scope can be reported there once the policies are in.
 */
import { diagnosticAt } from './format.js';
import { locate } from './locate.js';
import type { ParsedDocument } from './parse.js';
import type { Diagnostic, Rule } from './types.js';
import { compileRules } from './rules.js';

/** The keys that make a rule check something. */
const CHECKS = ['allow', 'deny', 'require', 'maxScopesPerDomain', 'requireExpiry', 'maxExpiryDays'] as const;

/**
 * @param parsed the project file's document, already valid against its schema
 * @returns the rules with their places, and the problems of rules that cannot match anything
 */
export function placeRules(parsed: ParsedDocument): { rules: Rule[]; diagnostics: Diagnostic[] } {
  const written = (parsed.data.rules ?? []) as Rule[];
  const rules = written.map((rule, index) => ({
    ...rule,
    source: locate(parsed, ['rules', index]),
    scopeSources: (rule.scopes ?? []).map((_, item) => locate(parsed, ['rules', index, 'scopes', item])),
  }));
  const diagnostics: Diagnostic[] = [];
  for (const problem of compileRules(rules).problems) {
    const at = locate(parsed, ['rules', problem.rule, problem.key, problem.item]);
    diagnostics.push(diagnosticAt(at, 'error', 'invalid-rule', `rule "${written[problem.rule]?.name ?? ''}": ${problem.message}`));
  }
  rules.forEach((rule, index) => {
    if (CHECKS.some((key) => rule[key] !== undefined)) return;
    const message = `rule "${rule.name}" checks nothing: give it at least one of ${CHECKS.join(', ')}`;
    diagnostics.push(diagnosticAt(locate(parsed, ['rules', index]), 'error', 'rule-matches-nothing', message));
  });
  diagnostics.push(...duplicateNames(rules, parsed));
  return { rules, diagnostics };
}

/** Findings name their rule, so two rules of one name would be told apart by nobody. */
function duplicateNames(rules: readonly Rule[], parsed: ParsedDocument): Diagnostic[] {
  const seen = new Set<string>();
  return rules.flatMap((rule, index) => {
    if (!seen.has(rule.name)) {
      seen.add(rule.name);
      return [];
    }
    return [diagnosticAt(locate(parsed, ['rules', index, 'name']), 'error', 'duplicate-rule', `rule name "${rule.name}" is used twice; findings name their rule, so each needs its own`)];
  });
}
