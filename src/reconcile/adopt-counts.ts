/**
 * `maxScopesPerDomain` for what `adopt` writes (docs/ownership-pruning-drift.md, "Drift"): a domain adopted from the live
 * state into one file may already be declared by other files, which `validate` then counts with
 * it; each file adopt checks alone would not see them. The policy files under the run's paths are
 * read once (no rules), and each adopted file is checked against the scopes every other file
 * declares, then counted in as it was written, so the next file sees it. Linear in the entries.
 */
import { loadPolicies, type NamedSecret } from '../policy/index.js';
import { compileRules, ruleApplies, type CompiledRule } from '../policy/rules.js';
import type { Policy } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import type { PolicyPlace } from './expired-since-plan.js';

/** The scopes each domain is declared in, over every policy file, kept current as adopt writes. */
export interface DeclaredCounts {
  /**
   * @param previous the scopes the file declared before (they are replaced, not counted twice)
   * @param policies the scopes the file would declare
   * @returns one message per scope and domain that would be in more scopes than a rule allows
   */
  over(previous: readonly ScopeKey[], policies: readonly Pick<Policy, 'key' | 'domains'>[]): { key: ScopeKey; message: string }[];
  /** The file now declares `policies` in place of `previous`. */
  replace(previous: readonly ScopeKey[], policies: readonly Pick<Policy, 'key' | 'domains'>[]): void;
}

/** @returns null when no error-level rule counts scopes (nothing to count), or there is no place to read the files from */
export async function declaredCounts(place: PolicyPlace | undefined, secrets: readonly NamedSecret[] = []): Promise<DeclaredCounts | null> {
  const rules = (place?.project.rules ?? []).filter((rule) => rule.maxScopesPerDomain !== undefined && (rule.level ?? 'error') === 'error');
  if (!place || rules.length === 0) return null;
  const { compiled } = compileRules(rules);
  const { policies } = await loadPolicies(place.paths, { cwd: place.base, roots: place.roots, project: place.project, rules: false, secrets });
  const byKey = new Map<ScopeKey, readonly string[]>();
  const holders = new Map<string, Set<ScopeKey>>();
  const replace = (previous: readonly ScopeKey[], now: readonly Pick<Policy, 'key' | 'domains'>[]): void => {
    for (const key of previous) for (const domain of byKey.get(key) ?? []) holders.get(domain)?.delete(key);
    for (const policy of now) {
      byKey.set(policy.key, policy.domains);
      for (const domain of policy.domains) {
        const set = holders.get(domain);
        if (set) set.add(policy.key);
        else holders.set(domain, new Set([policy.key]));
      }
    }
  };
  replace([], policies);
  return { over: (previous, now) => overLimit(compiled, holders, previous, now), replace };
}

function overLimit(rules: readonly CompiledRule[], holders: ReadonlyMap<string, ReadonlySet<ScopeKey>>, previous: readonly ScopeKey[], now: readonly Pick<Policy, 'key' | 'domains'>[]): { key: ScopeKey; message: string }[] {
  const replaced = new Set([...previous, ...now.map((policy) => policy.key)]);
  const messages: { key: ScopeKey; message: string }[] = [];
  for (const rule of rules) {
    const max = rule.rule.maxScopesPerDomain ?? Infinity;
    const mine = now.filter((policy) => ruleApplies(rule, policy.key));
    for (const policy of mine) {
      for (const domain of policy.domains) {
        let count = mine.filter((other) => other.domains.includes(domain)).length;
        for (const key of holders.get(domain) ?? []) if (!replaced.has(key) && ruleApplies(rule, key)) count += 1;
        if (count > max) messages.push({ key: policy.key, message: `rule "${rule.rule.name}": ${domain} in ${policy.key} would appear in ${count} scopes, more than ${max}, counting every policy file` });
      }
    }
  }
  return messages;
}
