/**
 * Whatever a run writes passes the same checks as a policy file (docs/ownership-pruning-drift.md, "Drift"): the domain
 * checks (syntax, webmail, public suffixes, homographs) and the project file's rules at `error`
 * level, whichever path built the list (a conflict merged under `drift: keep`, a take-over, a
 * saved plan). The files' own lists passed them when they were loaded; a list built from live
 * state did not, so every list a plan writes is checked again before anything is written.
 *
 * Each written domain has an origin ({@link writtenOrigins}): an entry of the policy file, which
 * the loader checked with its `expires` date, or a domain kept from the live state (a conflict
 * merged under `drift: keep`), which carries no expiry. The rules about entries (`requireExpiry`,
 * `maxExpiryDays`) are applied to the live-only ones here; `maxScopesPerDomain` counts each
 * live-only domain over every scope the run reads, as it will stand after the writes (a written
 * scope by its new list, any other by its live one: the plan's {@link DomainCensus}). Pure: no
 * I/O, linear in the domains written and counted.
 */
import { checkDomain } from '../policy/domains.js';
import { checkRules, compileRules, ruleApplies, type CompiledRule } from '../policy/rules.js';
import { comparableDomain, comparableDomains } from '../comparable-domain.js';
import { fingerprint } from './live-fingerprint.js';
import type { LiveScope } from '../service/types.js';
import type { Rule, SourcePos } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import type { CensusEntry, Change } from './types.js';

/** One written domain (or list) that would not pass as a policy file. */
export interface WriteProblem {
  key: ScopeKey;
  /** The check's code, as validate names it (`public-suffix`, `rule-deny`, …). */
  check: string;
  message: string;
}

/**
 * Every scope a plan read, by the domains its live state holds (normalized): the cross-scope view
 * `maxScopesPerDomain` needs. Kept in memory by the plan builder when a rule counts scopes; never
 * part of the plan document.
 */
export type DomainCensus = ReadonlyMap<string, readonly ScopeKey[]>;

/** @returns one scope's census entry: its live domains (none without an active invitation), with the fingerprint of that live state. */
export function censusEntry(key: ScopeKey, live: LiveScope | undefined): CensusEntry {
  return { key, domains: live?.autojoin ? comparableDomains(live.domains) : [], fingerprint: fingerprint(live) };
}

/** @returns the census of a plan (types.ts, `Plan.census`) by domain. */
export function domainCensus(entries: readonly CensusEntry[]): DomainCensus {
  const census = new Map<string, ScopeKey[]>();
  for (const entry of entries) countLive(census, entry.key, entry.domains);
  return census;
}

/** Adds one scope's live domains to a census (normalized, as written lists are). */
export function countLive(census: Map<string, ScopeKey[]>, key: ScopeKey, domains: readonly string[]): void {
  for (const domain of new Set(domains.map(comparableDomain))) {
    const holders = census.get(domain);
    if (holders) holders.push(key);
    else census.set(domain, [key]);
  }
}

/** Where one written domain comes from. */
export type WrittenOrigin = { domain: string; from: 'policy' } | { domain: string; from: 'live' };

/**
 * The origin of each domain a change writes: a domain the change's list holds because it was
 * added outside this repository and kept (a conflict merged under `drift: keep`) is live-only;
 * every other one is the policy file's (under `revert`, the list is the files' own). Derived
 * from the change alone, so a saved plan's changes carry it as well.
 */
export function writtenOrigins(change: Change): WrittenOrigin[] {
  const outside = new Set(change.outside?.added.map(comparableDomain));
  return change.after.map((domain) => ({ domain, from: outside.has(comparableDomain(domain)) ? 'live' : 'policy' }));
}

/**
 * @param rules the project file's rules (only `error`-level ones refuse)
 * @param census the live domains of every scope the plan read (absent: only the written lists count)
 * @returns the problems of every list `changes` would write, in change order
 */
export function writeProblems(changes: readonly Change[], rules: readonly Rule[] | undefined, today: string, census?: DomainCensus): WriteProblem[] {
  // Stryker disable next-line ArrayDeclaration: a placeholder in the default is a rule with no check, which refuses nothing
  const errorRules = (rules ?? []).filter((rule) => (rule.level ?? 'error') === 'error');
  // Every written domain meets the list rules; the files' entries passed the entry rules, with their dates, when loaded.
  const listRules = compileRules(errorRules.map(({ requireExpiry: _e, maxExpiryDays: _d, ...rule }) => rule)).compiled;
  // A live-only domain has no expiry date: of the entry rules only requireExpiry can refuse it (maxExpiryDays reads a date).
  const entryRules = compileRules(errorRules.map(({ name, scopes, requireExpiry }) => ({ name, scopes, requireExpiry }))).compiled;
  const problems: WriteProblem[] = [];
  const liveOnly = new Map<ScopeKey, string[]>();
  for (const change of changes) {
    if (change.after.length === 0 || onlyTakesAway(change)) continue;
    for (const domain of change.after) {
      const finding = checkDomain(domain).find((found) => found.severity === 'error');
      if (finding) problems.push({ key: change.key, check: finding.code, message: finding.message });
    }
    problems.push(...ruleProblems(listRules, change.key, change.after, today));
    const live = writtenOrigins(change).filter((origin) => origin.from === 'live').map((origin) => origin.domain);
    liveOnly.set(change.key, live);
    problems.push(...ruleProblems(entryRules, change.key, live, today).map((problem) => ({ ...problem, message: `${problem.message} (kept from the live state by drift: keep, which has no expiry)` })));
  }
  problems.push(...scopeCountProblems(listRules, changes, liveOnly, census ?? new Map()));
  return problems;
}

/**
 * `apply --only-expired` (its change writes the live marker back: `keepMarker`) only takes
 * expired entries away from the live list, so it puts nothing live that is not live already.
 * Refusing it for a domain an admin added would leave the expired grants live too; the full
 * plan shows that domain and refuses or reverts it as usual.
 */
function onlyTakesAway(change: Change): boolean {
  if (change.keepMarker === undefined) return false;
  const before = new Set(change.before.map(comparableDomain));
  return change.after.every((domain) => before.has(comparableDomain(domain)));
}

/** A written list stands in no file: the position its findings need, which ruleProblems drops. */
const NO_PLACE: SourcePos = { file: '', line: 1, column: 1 };

/** @param rules error-level rules only: every finding refuses */
function ruleProblems(rules: readonly CompiledRule[], key: ScopeKey, domains: readonly string[], today: string): WriteProblem[] {
  const subject = { key, entries: domains.map((domain, index) => ({ domain, index })), at: () => NO_PLACE };
  return checkRules(rules, subject, today).map((finding) => ({ key, check: finding.code, message: finding.message }));
}

/**
 * maxScopesPerDomain over the whole run: each domain a write keeps from the live state, counted
 * in every scope the rule matches as it stands after the run (written scopes by their new list,
 * the others by their live one). Only live-only domains can raise a count the files passed.
 */
function scopeCountProblems(rules: readonly CompiledRule[], changes: readonly Change[], liveOnly: ReadonlyMap<ScopeKey, string[]>, census: DomainCensus): WriteProblem[] {
  const written = new Set(changes.map((change) => change.key));
  // Each live-only domain's holders after the run: the unwritten scopes by their live list, then the written ones by their new list.
  const standing = new Map<string, ScopeKey[]>();
  for (const domain of [...liveOnly.values()].flat()) standing.set(domain, (census.get(domain) ?? []).filter((holder) => !written.has(holder)));
  for (const change of changes) for (const domain of change.after) standing.get(domain)?.push(change.key);
  const problems: WriteProblem[] = [];
  for (const rule of rules) {
    const max = rule.rule.maxScopesPerDomain ?? Infinity;
    for (const [key, domains] of liveOnly) {
      if (!ruleApplies(rule, key)) continue;
      for (const domain of domains) {
        // Stryker disable next-line ArrayDeclaration: every live-only domain has its holders (above); the default only satisfies the type
        const scopes = (standing.get(domain) ?? []).filter((holder) => ruleApplies(rule, holder)).sort();
        if (scopes.length <= max) continue;
        const named = scopes.length > 5 ? `${scopes.slice(0, 5).join(', ')}, …` : scopes.join(', ');
        const message = `rule "${rule.rule.name}": ${domain} would appear in ${scopes.length} scopes, more than ${max} (${named}), kept from the live state by drift: keep`;
        problems.push({ key, check: 'rule-max-scopes', message });
      }
    }
  }
  return problems;
}
