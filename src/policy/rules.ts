/**
 * Governance rules of the project file, checked against the policies: pure (rules, policies and
 * today in, findings out). Each finding names its rule and stands at the entry it is about: the
 * domain entry for allow, deny, requireExpiry, maxExpiryDays and maxScopesPerDomain, the
 * `domains` key for require. Only the entries a plan would keep count (an expired one is being
 * removed): so a required domain that expires is a finding too, before any plan removes it.
 */
import { diagnosticAt } from './format.js';
import { normalizeDomain } from './domains.js';
import type { Diagnostic, Rule, SourcePos } from './types.js';
import type { ScopeKey } from '../scope.js';
import { addDays, daysBetween } from './clock.js';
import { domainGlob, scopeGlob, type DomainGlob, type ScopeGlob } from './globs.js';

/** A domain entry a rule looks at: normalized, with its place in the `domains` list. */
export interface RuleEntry {
  domain: string;
  expires?: string;
  index: number;
}

/** One policy as the rules see it. */
export interface RuleSubject {
  key: ScopeKey;
  /** The entries the plan keeps (not expired). */
  entries: readonly RuleEntry[];
  /** The file says `domains: []`: the scope is retired on purpose, so `require` does not hold it. */
  retired?: boolean;
  /** @returns where entry `index` stands, or the `domains` key */
  at(index: number | 'domains'): SourcePos;
}

/** A rule ready to check; the project loader has already refused rules that do not compile. */
export interface CompiledRule {
  rule: Rule;
  scopes: ScopeGlob[] | null;
  allow: DomainGlob[] | null;
  deny: DomainGlob[];
  require: string[];
  requireExpiry: DomainGlob[];
}

/** @returns the rules compiled, and the message of each glob that does not compile, by rule index and key. */
export function compileRules(rules: readonly Rule[]): { compiled: CompiledRule[]; problems: { rule: number; key: string; item: number; message: string }[] } {
  const problems: { rule: number; key: string; item: number; message: string }[] = [];
  const compiled = rules.map((rule, index) => {
    const globs = <T>(key: keyof Rule, list: readonly string[] | undefined, make: (text: string) => T | string): T[] =>
      (list ?? []).flatMap((text, item) => {
        const glob = make(text);
        if (typeof glob === 'string') problems.push({ rule: index, key, item, message: glob });
        return typeof glob === 'string' ? [] : [glob];
      });
    return {
      rule,
      scopes: rule.scopes ? globs('scopes', rule.scopes, scopeGlob) : null,
      allow: rule.allow ? globs('allow', rule.allow, domainGlob) : null,
      deny: globs('deny', rule.deny, domainGlob),
      require: globs('require', rule.require, requiredDomain).map((required) => required.domain),
      requireExpiry: globs('requireExpiry', rule.requireExpiry, domainGlob),
    };
  });
  return { compiled, problems };
}

/** @returns whether a rule applies to the scope `key`. */
export function ruleApplies(rule: CompiledRule, key: ScopeKey): boolean {
  return rule.scopes === null || rule.scopes.some((glob) => glob.test(key));
}

/** @returns the findings of every per-policy check (all but maxScopesPerDomain) of the rules that apply to `subject`. */
export function checkRules(rules: readonly CompiledRule[], subject: RuleSubject, today: string): Diagnostic[] {
  // Allocates nothing for a policy that passes: it runs for every policy of every run.
  let findings: Diagnostic[] | undefined;
  for (const rule of rules) {
    if (!ruleApplies(rule, subject.key)) continue;
    for (const entry of subject.entries) {
      const problem = entryProblem(rule, subject.key, entry, today);
      if (problem) (findings ??= []).push(ruleFinding(rule, subject.at(entry.index), problem));
    }
    const missing = subject.retired || rule.require.length === 0 ? [] : rule.require.filter((domain) => !subject.entries.some((entry) => entry.domain === domain));
    if (missing.length > 0) {
      const problem = { code: 'rule-require', message: `${subject.key} must list ${missing.join(', ')} (removing a required domain could lock its people out)` };
      (findings ??= []).push(ruleFinding(rule, subject.at('domains'), problem));
    }
  }
  return findings ?? NONE;
}

const NONE: Diagnostic[] = [];

function ruleFinding(rule: CompiledRule, at: SourcePos, problem: { code: string; message: string }): Diagnostic {
  return diagnosticAt(at, rule.rule.level ?? 'error', problem.code, `rule "${rule.rule.name}": ${problem.message}`);
}

/** @returns the first problem of one entry under one rule, or null. */
function entryProblem(rule: CompiledRule, key: ScopeKey, entry: RuleEntry, today: string): { code: string; message: string } | null {
  const { domain } = entry;
  if (rule.allow !== null && !rule.allow.some((glob) => glob.test(domain))) {
    return { code: 'rule-allow', message: `${domain} is not allowed in ${key} (allowed: ${patterns(rule.allow)})` };
  }
  const denied = rule.deny.find((glob) => glob.test(domain));
  if (denied) return { code: 'rule-deny', message: `${domain} is denied in ${key} (matches ${denied.pattern})` };
  if (entry.expires === undefined && rule.requireExpiry.some((glob) => glob.test(domain))) {
    return { code: 'rule-require-expiry', message: `${domain} in ${key} must carry an expiry date: write it as {domain: ${domain}, expires: YYYY-MM-DD, reason: …}` };
  }
  const maxDays = rule.rule.maxExpiryDays;
  if (maxDays !== undefined && entry.expires !== undefined && daysBetween(today, entry.expires) > maxDays) {
    return { code: 'rule-max-expiry', message: `${domain} in ${key} expires ${entry.expires}, more than ${maxDays} days from today (at the latest ${addDays(today, maxDays)})` };
  }
  return null;
}

/** A domain `require` names: normalized as policies are; no glob. */
function requiredDomain(text: string): { domain: string } | string {
  if (text.includes('*')) return `"${text}" is not a domain: require names domains, not globs`;
  return typeof domainGlob(text) === 'string' ? `"${text}" is not a domain` : { domain: normalizeDomain(text) };
}

function patterns(globs: readonly DomainGlob[]): string {
  return globs.map((glob) => glob.pattern).join(', ');
}

/**
 * Counts, for each rule with maxScopesPerDomain, the scopes each domain appears in; needs every
 * policy, so findings come once all are added.
 */
export function createScopeCounter(rules: readonly CompiledRule[]): { add(subject: RuleSubject): void; findings(): Diagnostic[] } {
  const counted = rules.filter((rule) => rule.rule.maxScopesPerDomain !== undefined);
  // Most domains appear once: a single place until a second one comes (no array per domain).
  const seen = counted.map(() => new Map<string, Place | Place[]>());
  return {
    add(subject) {
      for (let index = 0; index < counted.length; index += 1) {
        if (!ruleApplies(counted[index] as CompiledRule, subject.key)) continue;
        const byDomain = seen[index] as Map<string, Place | Place[]>;
        for (const entry of subject.entries) {
          const place = { key: subject.key, at: subject.at(entry.index) };
          const known = byDomain.get(entry.domain);
          if (known === undefined) byDomain.set(entry.domain, place);
          else if (Array.isArray(known)) known.push(place);
          else byDomain.set(entry.domain, [known, place]);
        }
      }
    },
    findings() {
      return counted.flatMap((rule, index) => overCount(rule, seen[index] as Map<string, Place | Place[]>));
    },
  };
}

/** One entry of a domain in a scope. */
interface Place {
  key: ScopeKey;
  at: SourcePos;
}

function overCount(rule: CompiledRule, byDomain: ReadonlyMap<string, Place | Place[]>): Diagnostic[] {
  const max = rule.rule.maxScopesPerDomain ?? Infinity;
  const findings: Diagnostic[] = [];
  for (const [domain, known] of byDomain) {
    const places = Array.isArray(known) ? known : [known];
    if (places.length <= max) continue;
    const keys = places.map((place) => place.key).sort();
    const named = keys.length > 5 ? `${keys.slice(0, 5).join(', ')}, …` : keys.join(', ');
    const message = `rule "${rule.rule.name}": ${domain} appears in ${places.length} scopes, more than ${max} (${named})`;
    for (const place of places) findings.push(diagnosticAt(place.at, rule.rule.level ?? 'error', 'rule-max-scopes', message));
  }
  return findings;
}

/**
 * A rule whose `scopes` glob matches no declared scope checks nothing there: a warning at that
 * glob, never an error (a rule written ahead of the scopes it is for, or for scopes another
 * run's paths hold, must not stop validate).
 * @param keys every scope the policy files declare
 */
export function unmatchedScopeGlobs(rules: readonly CompiledRule[], keys: readonly ScopeKey[]): Diagnostic[] {
  const findings: Diagnostic[] = [];
  for (const rule of rules) {
    // Stryker disable next-line ArrayDeclaration: a rule without scopes has no scopeSources, so no item would pass the `at` check
    (rule.scopes ?? []).forEach((glob, index) => {
      const at = rule.rule.scopeSources?.[index];
      if (!at || keys.some((key) => glob.test(key))) return;
      const message = `rule "${rule.rule.name}": scopes glob ${glob.pattern} matches no scope the policy files declare, so the rule checks nothing there`;
      findings.push(diagnosticAt(at, 'warning', 'rule-matches-nothing', message));
    });
  }
  return findings;
}
