/**
 * Every rule kind of the project file, through the loader as validate and plan run it: each
 * finding names its rule and stands at the entry (or the `domains` key) it is about; a rule that
 * cannot match anything is an error in the project file.
 */
import { describe, expect, it } from 'vitest';
import { parsePolicySources, parseProjectSource, type Diagnostic, type PolicySource } from '../../src/policy/index.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';

const TODAY = '2026-03-01';

function project(yaml: string): ReturnType<typeof parseProjectSource> {
  return parseProjectSource({ file: 'autojoin-sync.yaml', text: yaml }, '/repo/autojoin-sync.yaml');
}

function policy(file: string, scope: string, domains: string[], scopeType = 'team'): PolicySource {
  return { file, text: `scope: ${scope}\nscopeType: ${scopeType}\ncomponentId: c1\ndomains:\n${domains.map((d) => `  - ${d}\n`).join('')}` };
}

/** @returns the rule findings (code rule-…) of the sources under the rules, as file:line:col lines. */
function findings(rulesYaml: string, sources: PolicySource[]): string[] {
  const loaded = project(rulesYaml);
  expect(loaded.diagnostics).toEqual([]);
  const result = parsePolicySources(sources, { project: loaded.config, today: TODAY, rules: true });
  return result.diagnostics.filter((d: Diagnostic) => d.code.startsWith('rule-')).map(formatDiagnostic);
}

describe('rules', () => {
  it('allow: every domain of a matched scope matches one glob; * is one or more labels', () => {
    const rules = 'rules:\n  - name: corp\n    allow: ["acme.com", "*.acme.com"]\n';
    expect(findings(rules, [policy('a.autojoin.yaml', 'a', ['acme.com', 'eu.acme.com', 'a.b.acme.com', 'acme.co', 'xacme.com'])])).toEqual([
      'a.autojoin.yaml:8:5: error: rule "corp": acme.co is not allowed in team/a (allowed: acme.com, *.acme.com)',
      'a.autojoin.yaml:9:5: error: rule "corp": xacme.com is not allowed in team/a (allowed: acme.com, *.acme.com)',
    ]);
  });

  it('scopes: a rule with two globs applies to a scope either glob matches (any, not all)', () => {
    const rules = 'rules:\n  - name: no agencies\n    scopes: ["org/*", "team/a"]\n    deny: ["*.agency.example"]\n';
    const sources = [policy('o.autojoin.yaml', 'o', ['x.agency.example'], 'org'), policy('a.autojoin.yaml', 'a', ['x.agency.example']), policy('b.autojoin.yaml', 'b', ['x.agency.example'])];
    expect(findings(rules, sources)).toEqual([
      'a.autojoin.yaml:5:5: error: rule "no agencies": x.agency.example is denied in team/a (matches *.agency.example)',
      'o.autojoin.yaml:5:5: error: rule "no agencies": x.agency.example is denied in org/o (matches *.agency.example)',
    ]);
  });

  it('deny, only in the scopes its globs match, at level warning', () => {
    const rules = 'rules:\n  - name: no agencies\n    scopes: ["org/*"]\n    deny: ["*.agency.example"]\n    level: warning\n';
    const sources = [policy('a.autojoin.yaml', 'a', ['x.agency.example'], 'org'), policy('b.autojoin.yaml', 'b', ['x.agency.example'])];
    expect(findings(rules, sources)).toEqual(['a.autojoin.yaml:5:5: warning: rule "no agencies": x.agency.example is denied in org/a (matches *.agency.example)']);
  });

  it('require: an error at the domains key of a scope that does not list the domain (Unicode and punycode alike)', () => {
    const rules = 'rules:\n  - name: keep the company\n    require: ["Müller.de"]\n';
    const sources = [policy('a.autojoin.yaml', 'a', ['xn--mller-kva.de']), policy('b.autojoin.yaml', 'b', ['acme.com'])];
    expect(findings(rules, sources)).toEqual([
      'b.autojoin.yaml:4:1: error: rule "keep the company": team/b must list xn--mller-kva.de (removing a required domain could lock its people out)',
    ]);
  });

  it('require: a required domain whose entry expired counts as removed', () => {
    const rules = 'rules:\n  - name: keep\n    require: ["acme.com"]\n';
    const text = 'scope: a\nscopeType: team\ncomponentId: c1\ndomains:\n  - domain: acme.com\n    expires: 2026-02-01\n';
    expect(findings(rules, [{ file: 'a.autojoin.yaml', text }])).toEqual([
      'a.autojoin.yaml:4:1: error: rule "keep": team/a must list acme.com (removing a required domain could lock its people out)',
    ]);
  });

  it('require does not hold a scope its file retires on purpose (domains: [])', () => {
    const rules = 'rules:\n  - name: keep\n    require: ["acme.com"]\n';
    expect(findings(rules, [{ file: 'a.autojoin.yaml', text: 'scope: a\nscopeType: team\ncomponentId: c1\ndomains: []\n' }])).toEqual([]);
  });

  it('maxScopesPerDomain: every entry of a domain in more matched scopes than allowed', () => {
    const rules = 'rules:\n  - name: spread\n    maxScopesPerDomain: 1\n';
    const sources = [policy('a.autojoin.yaml', 'a', ['acme.com', 'one.com']), policy('b.autojoin.yaml', 'b', ['acme.com'])];
    expect(findings(rules, sources)).toEqual([
      'a.autojoin.yaml:5:5: error: rule "spread": acme.com appears in 2 scopes, more than 1 (team/a, team/b)',
      'b.autojoin.yaml:5:5: error: rule "spread": acme.com appears in 2 scopes, more than 1 (team/a, team/b)',
    ]);
  });

  it('requireExpiry and maxExpiryDays: matching entries are time-bound, and not too far out', () => {
    const rules = 'rules:\n  - name: contractors\n    requireExpiry: ["*.contractor.example"]\n    maxExpiryDays: 30\n';
    const text =
      'scope: a\nscopeType: team\ncomponentId: c1\ndomains:\n  - a.contractor.example\n' +
      '  - {domain: b.contractor.example, expires: 2026-12-01}\n  - {domain: c.contractor.example, expires: 2026-03-31}\n';
    expect(findings(rules, [{ file: 'a.autojoin.yaml', text }])).toEqual([
      'a.autojoin.yaml:5:5: error: rule "contractors": a.contractor.example in team/a must carry an expiry date: write it as {domain: a.contractor.example, expires: YYYY-MM-DD, reason: …}',
      'a.autojoin.yaml:6:5: error: rule "contractors": b.contractor.example in team/a expires 2026-12-01, more than 30 days from today (at the latest 2026-03-31)',
    ]);
  });

  it('a rule error keeps the policy out (nothing is planned from it); a warning does not', () => {
    const loaded = project('rules:\n  - name: corp\n    allow: ["acme.com"]\n');
    const result = parsePolicySources([policy('a.autojoin.yaml', 'a', ['other.com']), policy('b.autojoin.yaml', 'b', ['acme.com'])], { project: loaded.config, rules: true });
    expect(result.policies.map((p) => p.key)).toEqual(['team/b']);
    const history = parsePolicySources([policy('a.autojoin.yaml', 'a', ['other.com'])], { project: loaded.config });
    expect(history.diagnostics).toEqual([]);
  });
});

describe('rules that cannot match anything are errors in the project file', () => {
  it('an unknown key, a rule without a check, a bad glob, a name used twice', () => {
    const unknown = project('rules:\n  - name: a\n    alow: ["acme.com"]\n');
    expect(unknown.diagnostics.map(formatDiagnostic)).toEqual([
      'autojoin-sync.yaml:3:5: error: unknown key "alow" in rules[0] (did you mean "allow"?); allowed keys: name, scopes, allow, deny, require, maxScopesPerDomain, requireExpiry, maxExpiryDays, level',
    ]);
    const loaded = project('rules:\n  - name: a\n    scopes: ["team/*"]\n  - name: b\n    allow: ["ac*me.com"]\n  - name: b\n    scopes: ["noslash"]\n    deny: ["x.com"]\n');
    expect(loaded.diagnostics.map(formatDiagnostic)).toEqual([
      'autojoin-sync.yaml:2:5: error: rule "a" checks nothing: give it at least one of allow, deny, require, maxScopesPerDomain, requireExpiry, maxExpiryDays',
      'autojoin-sync.yaml:5:13: error: rule "b": "ac*me.com" is not a domain glob: each label is a domain label or * (one or more labels)',
      'autojoin-sync.yaml:6:11: error: rule name "b" is used twice; findings name their rule, so each needs its own',
      'autojoin-sync.yaml:7:14: error: rule "b": "noslash" is not a scope glob: expected TYPE/ID, e.g. team/* or organization/acme-*',
    ]);
  });

  it('a scopes glob that matches no declared scope, at that glob', () => {
    const loaded = project('rules:\n  - name: orgs\n    scopes: ["team/*", "org/*"]\n    deny: ["x.com"]\n');
    const source = policy('a.autojoin.yaml', 'a', ['acme.com']);
    // Only a complete load knows every declared scope (parsePolicySources may hold a subset).
    expect(parsePolicySources([source], { project: loaded.config, rules: true }).diagnostics).toEqual([]);
  });
});
