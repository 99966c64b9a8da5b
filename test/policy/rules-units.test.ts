/**
 * src/policy/rules.ts on its own, where test/governance/rules.test.ts (through the loader) does
 * not reach: each compile problem's rule, key and item; the first problem of an entry; the
 * bounds of maxExpiryDays and maxScopesPerDomain; the scopes named in a count's message; a
 * `scopes` glob that matches nothing. Written for its mutation score (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { compileRules, checkRules, createScopeCounter, ruleApplies, unmatchedScopeGlobs, type CompiledRule, type RuleSubject } from '../../src/policy/rules.js';
import type { Diagnostic, Rule, SourcePos } from '../../src/policy/types.js';
import type { ScopeKey } from '../../src/scope.js';
import { defined } from '../support/defined.js';

const TODAY = '2026-03-01';

function compiled(rules: Rule[]): CompiledRule[] {
  const result = compileRules(rules);
  expect(result.problems).toEqual([]);
  return result.compiled;
}

/** A policy of `key` whose entry i stands at line 10 + i, its `domains` key at line 4. */
function subject(key: string, domains: (string | { domain: string; expires: string })[], retired?: boolean): RuleSubject {
  const entries = domains.map((entry, index) => (typeof entry === 'string' ? { domain: entry, index } : { ...entry, index }));
  const at = (index: number | 'domains'): SourcePos => ({ file: `${key}.yaml`, line: index === 'domains' ? 4 : 10 + index, column: 5 });
  return { key: key, entries, ...(retired === undefined ? {} : { retired }), at };
}

const shown = (findings: readonly Diagnostic[]): string[] => findings.map((d) => `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}`);

const check = (rules: Rule[], policy: RuleSubject): string[] => shown(checkRules(compiled(rules), policy, TODAY));

describe('compileRules', () => {
  it("names each glob that does not compile by its rule's index, its key and its item", () => {
    const { problems } = compileRules([
      { name: 'fine', deny: ['x.com'] },
      { name: 'bad', scopes: ['team/*', 'noslash'], allow: ['ac*me.com'], deny: ['x.com', 'a b.com'], require: ['*.acme.com', 'a b.com'], requireExpiry: ['ok.com', 'c*d.com'] },
    ]);
    expect(problems).toEqual([
      { rule: 1, key: 'scopes', item: 1, message: '"noslash" is not a scope glob: expected TYPE/ID, e.g. team/* or organization/acme-*' },
      { rule: 1, key: 'allow', item: 0, message: '"ac*me.com" is not a domain glob: each label is a domain label or * (one or more labels)' },
      { rule: 1, key: 'deny', item: 1, message: '"a b.com" is not a domain glob: each label is a domain label or * (one or more labels)' },
      { rule: 1, key: 'require', item: 0, message: '"*.acme.com" is not a domain: require names domains, not globs' },
      { rule: 1, key: 'require', item: 1, message: '"a b.com" is not a domain' },
      { rule: 1, key: 'requireExpiry', item: 1, message: '"c*d.com" is not a domain glob: each label is a domain label or * (one or more labels)' },
    ]);
  });

  it('keeps the globs that compile, normalizes required domains, and leaves scopes and allow unset when absent', () => {
    const [rule] = compileRules([{ name: 'r', scopes: ['team/*', 'bad'], require: ['Müller.DE.'] }]).compiled;
    expect(rule?.scopes?.map((glob) => glob.pattern)).toEqual(['team/*']);
    expect(rule?.require).toEqual(['xn--mller-kva.de']);
    const [open] = compiled([{ name: 'open', deny: ['x.com'] }]);
    expect(open?.scopes).toBeNull();
    expect(open?.allow).toBeNull();
    expect(open?.require).toEqual([]);
    expect(open?.requireExpiry).toEqual([]);
  });
});

describe('ruleApplies', () => {
  const [everywhere, some] = compiled([{ name: 'all', deny: ['x.com'] }, { name: 'some', scopes: ['org/*', 'team/a'], deny: ['x.com'] }]);
  it.each([
    ['team/zz', true, false],
    ['team/a', true, true],
    ['org/x', true, true],
    ['team/b', true, false],
  ])('%s: a rule without scopes applies (%s); one with two globs where either matches (%s)', (key, all, either) => {
    expect(ruleApplies(defined(everywhere), key)).toBe(all);
    expect(ruleApplies(defined(some), key)).toBe(either);
  });
});

describe('checkRules', () => {
  it('finds nothing without rules, and nothing under a rule that does not apply', () => {
    expect(check([], subject('team/a', ['x.com']))).toEqual([]);
    expect(check([{ name: 'orgs', scopes: ['org/*'], deny: ['x.com'] }], subject('team/a', ['x.com']))).toEqual([]);
  });

  it('allow: an entry no glob matches, naming every glob; deny: the glob that matched', () => {
    const rules: Rule[] = [{ name: 'corp', allow: ['acme.com', '*.acme.com'] }, { name: 'no', deny: ['y.com', '*.agency.example'], level: 'warning' }];
    expect(check(rules, subject('team/a', ['acme.com', 'other.com', 'eu.acme.com', 'x.agency.example']))).toEqual([
      'team/a.yaml:11:5: error rule-allow: rule "corp": other.com is not allowed in team/a (allowed: acme.com, *.acme.com)',
      'team/a.yaml:13:5: error rule-allow: rule "corp": x.agency.example is not allowed in team/a (allowed: acme.com, *.acme.com)',
      'team/a.yaml:13:5: warning rule-deny: rule "no": x.agency.example is denied in team/a (matches *.agency.example)',
    ]);
  });

  it('an entry shows the first problem under one rule only', () => {
    const rules: Rule[] = [{ name: 'one', allow: ['acme.com'], deny: ['x.com'], requireExpiry: ['x.com'] }];
    expect(check(rules, subject('team/a', ['x.com']))).toEqual(['team/a.yaml:10:5: error rule-allow: rule "one": x.com is not allowed in team/a (allowed: acme.com)']);
    const denied: Rule[] = [{ name: 'two', deny: ['x.com'], requireExpiry: ['x.com'] }];
    expect(check(denied, subject('team/a', ['x.com']))).toEqual(['team/a.yaml:10:5: error rule-deny: rule "two": x.com is denied in team/a (matches x.com)']);
  });

  it('requireExpiry holds only the entries it matches that carry no date; maxExpiryDays those further out than its days', () => {
    const rules: Rule[] = [{ name: 'temp', requireExpiry: ['*.contractor.example'], maxExpiryDays: 30 }];
    const entries = [
      'a.contractor.example',
      'acme.com',
      { domain: 'b.contractor.example', expires: '2026-03-31' }, // exactly 30 days
      { domain: 'c.contractor.example', expires: '2026-04-01' }, // 31 days
      { domain: 'acme.com', expires: '2027-01-01' },
    ];
    expect(check(rules, subject('team/a', entries))).toEqual([
      'team/a.yaml:10:5: error rule-require-expiry: rule "temp": a.contractor.example in team/a must carry an expiry date: write it as {domain: a.contractor.example, expires: YYYY-MM-DD, reason: …}',
      'team/a.yaml:13:5: error rule-max-expiry: rule "temp": c.contractor.example in team/a expires 2026-04-01, more than 30 days from today (at the latest 2026-03-31)',
      'team/a.yaml:14:5: error rule-max-expiry: rule "temp": acme.com in team/a expires 2027-01-01, more than 30 days from today (at the latest 2026-03-31)',
    ]);
    expect(check([{ name: 'dated', requireExpiry: ['*.acme.com'] }], subject('team/a', [{ domain: 'eu.acme.com', expires: '2099-01-01' }]))).toEqual([]);
  });

  it('require: every missing domain at the domains key; none for a retired scope or one that lists them', () => {
    const rules: Rule[] = [{ name: 'keep', require: ['acme.com', 'acme.de', 'acme.fr'] }];
    expect(check(rules, subject('team/a', ['acme.de']))).toEqual([
      'team/a.yaml:4:5: error rule-require: rule "keep": team/a must list acme.com, acme.fr (removing a required domain could lock its people out)',
    ]);
    expect(check(rules, subject('team/a', [], true))).toEqual([]);
    expect(check(rules, subject('team/a', ['acme.fr', 'acme.de', 'acme.com'], false))).toEqual([]);
    expect(check([{ name: 'deny only', deny: ['x.com'] }], subject('team/a', []))).toEqual([]);
  });
});

describe('createScopeCounter', () => {
  const counted = (rules: Rule[], subjects: RuleSubject[]): string[] => {
    const counter = createScopeCounter(compiled(rules));
    for (const policy of subjects) counter.add(policy);
    return shown(counter.findings());
  };

  it('names every entry of a domain in more scopes than allowed, scopes sorted; a domain at the limit is fine', () => {
    const subjects = [subject('team/c', ['acme.com', 'two.com']), subject('team/a', ['acme.com', 'two.com']), subject('team/b', ['acme.com'])];
    const message = 'rule "spread": acme.com appears in 3 scopes, more than 2 (team/a, team/b, team/c)';
    expect(counted([{ name: 'spread', maxScopesPerDomain: 2, level: 'warning' }], subjects)).toEqual([
      `team/c.yaml:10:5: warning rule-max-scopes: ${message}`,
      `team/a.yaml:10:5: warning rule-max-scopes: ${message}`,
      `team/b.yaml:10:5: warning rule-max-scopes: ${message}`,
    ]);
  });

  it('names five scopes at most', () => {
    const keys = (count: number): RuleSubject[] => Array.from({ length: count }, (_, index) => subject(`team/${index}`, ['acme.com']));
    const [six] = counted([{ name: 'one', maxScopesPerDomain: 1 }], keys(6));
    expect(six).toContain('appears in 6 scopes, more than 1 (team/0, team/1, team/2, team/3, team/4, …)');
    const [five] = counted([{ name: 'one', maxScopesPerDomain: 1 }], keys(5));
    expect(five).toContain('appears in 5 scopes, more than 1 (team/0, team/1, team/2, team/3, team/4)');
  });

  it('counts each rule in the scopes it applies to, apart from the others; a rule without the limit counts nothing', () => {
    const rules: Rule[] = [
      { name: 'deny', deny: ['y.com'] },
      { name: 'teams', scopes: ['team/*'], maxScopesPerDomain: 1 },
      { name: 'none', maxScopesPerDomain: 0 },
    ];
    expect(counted(rules, [subject('team/a', ['acme.com']), subject('org/o', ['acme.com', 'solo.com'])])).toEqual([
      'team/a.yaml:10:5: error rule-max-scopes: rule "none": acme.com appears in 2 scopes, more than 0 (org/o, team/a)',
      'org/o.yaml:10:5: error rule-max-scopes: rule "none": acme.com appears in 2 scopes, more than 0 (org/o, team/a)',
      'org/o.yaml:11:5: error rule-max-scopes: rule "none": solo.com appears in 1 scopes, more than 0 (org/o)',
    ]);
  });
});

describe('unmatchedScopeGlobs', () => {
  const source = (line: number): SourcePos => ({ file: 'autojoin-sync.yaml', line, column: 7 });

  it('warns at each glob that matches no declared scope; not for a glob without a place, nor a rule without scopes', () => {
    const rules = compiled([
      { name: 'mixed', scopes: ['team/*', 'org/*'], deny: ['x.com'], scopeSources: [source(3), source(4)] },
      { name: 'unplaced', scopes: ['org/*'], deny: ['x.com'] },
      { name: 'open', deny: ['x.com'] },
    ]);
    expect(shown(unmatchedScopeGlobs(rules, ['team/a']))).toEqual([
      'autojoin-sync.yaml:4:7: warning rule-matches-nothing: rule "mixed": scopes glob org/* matches no scope the policy files declare, so the rule checks nothing there',
    ]);
    expect(unmatchedScopeGlobs(rules, ['team/a', 'org/o'] as ScopeKey[])).toEqual([]);
  });
});
