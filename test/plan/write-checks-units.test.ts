/**
 * The write checks, unit by unit (src/plan/write-checks.ts): the census of live domains, the
 * domain checks and list rules every written list meets, the entry rules of live-only domains,
 * what `--only-expired` and a clear skip, and maxScopesPerDomain over the run. Pure.
 */
import { describe, expect, it } from 'vitest';
import { censusEntry, countLive, domainCensus, writeProblems, writtenOrigins } from '../../src/plan/write-checks.js';
import { fingerprint, NO_AUTOJOIN } from '../../src/plan/live-fingerprint.js';
import { live, noAutojoin } from './fixtures.js';
import type { Change } from '../../src/plan/types.js';
import type { Rule } from '../../src/policy/types.js';
import type { ScopeKey } from '../../src/scope.js';
import { defined } from '../support/defined.js';

const DAY = '2026-03-01';
const KEPT = '(kept from the live state by drift: keep, which has no expiry)';

/** An update of team/`scope` writing `after`, of which `outsideAdded` were added outside and kept. */
function change(scope: string, after: string[], outsideAdded?: string[], extra: Partial<Change> = {}): Change {
  const outside = outsideAdded === undefined ? {} : { origin: 'conflict' as const, outside: { added: outsideAdded, removed: [], fields: [] } };
  return { kind: 'update', key: `team/${scope}`, scope, scopeType: 'team', componentId: 'c1', before: [], after, reason: 'declared', ...outside, ...extra };
}

const checks = (changes: Change[], rules?: Rule[], census?: Map<string, ScopeKey[]>) =>
  writeProblems(changes, rules, DAY, census).map((problem) => `${problem.key} ${problem.check}: ${problem.message}`);

describe('the census of live domains', () => {
  it('censusEntry: an active invitation\'s domains in comparison form, with its fingerprint; none without one', () => {
    const scope = live('team/a', ['B.com', 'a.com']);
    expect(censusEntry('team/a', scope)).toEqual({ key: 'team/a', domains: ['a.com', 'b.com'], fingerprint: fingerprint(scope) });
    expect(censusEntry('team/b', { ...noAutojoin('team/b'), domains: ['stale.com'] })).toEqual({ key: 'team/b', domains: [], fingerprint: NO_AUTOJOIN });
    expect(censusEntry('team/c', undefined)).toEqual({ key: 'team/c', domains: [], fingerprint: NO_AUTOJOIN });
  });

  it('domainCensus and countLive: each domain\'s scopes, a scope once per domain however written', () => {
    const census = domainCensus([
      { key: 'team/a', domains: ['x.com', 'y.com'], fingerprint: '' },
      { key: 'team/b', domains: ['x.com'], fingerprint: '' },
    ]);
    expect([...census]).toEqual([['x.com', ['team/a', 'team/b']], ['y.com', ['team/a']]]);
    const counted = new Map<string, ScopeKey[]>();
    countLive(counted, 'team/c', ['X.com', 'x.com.']);
    countLive(counted, 'team/d', ['x.com']);
    expect([...counted]).toEqual([['x.com', ['team/c', 'team/d']]]);
  });
});

describe('writtenOrigins', () => {
  it('every domain is the policy\'s when nothing was changed outside; a kept one matches in comparison form', () => {
    expect(writtenOrigins(change('a', ['a.com']))).toEqual([{ domain: 'a.com', from: 'policy' }]);
    expect(writtenOrigins(change('a', ['x.example'], ['X.Example.']))).toEqual([{ domain: 'x.example', from: 'live' }]);
  });
});

describe('the checks every written list meets', () => {
  it('a domain check\'s error refuses (without any rule); its warning does not', () => {
    expect(checks([change('a', ['gmail.com', 'eng.acme.com'])])).toEqual([
      'team/a webmail-domain: gmail.com is a webmail domain; the service would reject it with 400 (anyone can get an address there)',
    ]);
  });

  it('the list rules, for the files\' domains too', () => {
    const rules: Rule[] = [{ name: 'no bad', deny: ['*.bad.example'] }];
    expect(checks([change('a', ['a.com', 'x.bad.example'])], rules)).toEqual(['team/a rule-deny: rule "no bad": x.bad.example is denied in team/a (matches *.bad.example)']);
  });

  it('a clear writes no list, so `require` holds no clear; an update that drops the domain is refused', () => {
    const rules: Rule[] = [{ name: 'keep it', require: ['acme.com'] }];
    expect(checks([change('a', [], undefined, { kind: 'clear', before: ['acme.com'] })], rules)).toEqual([]);
    expect(checks([change('a', ['b.com'])], rules)).toEqual([
      'team/a rule-require: rule "keep it": team/a must list acme.com (removing a required domain could lock its people out)',
    ]);
  });

  it('--only-expired (the marker written back) that only takes domains away is not checked; one that adds a domain is', () => {
    const expiredOnly = { keepMarker: { 'autojoin-sync.owner': 'default' }, before: ['gmail.com', 'old.com'] };
    expect(checks([change('a', ['gmail.com'], undefined, expiredOnly)])).toEqual([]);
    expect(checks([change('a', ['gmail.com', 'new.com'], undefined, expiredOnly)]).map((line) => line.split(':')[0])).toEqual(['team/a webmail-domain']);
    expect(checks([change('a', ['gmail.com'], undefined, { before: ['gmail.com'] })])).toHaveLength(1);
  });
});

describe('the entry rules, for the live-only domains', () => {
  it('requireExpiry refuses a kept domain, named by its rule, and says why it has no date', () => {
    const rules: Rule[] = [{ name: 'expire', requireExpiry: ['*.example'], deny: ['nothing.example'] }];
    expect(checks([change('a', ['x.example'], ['x.example'])], rules)).toEqual([
      `team/a rule-require-expiry: rule "expire": x.example in team/a must carry an expiry date: write it as {domain: x.example, expires: YYYY-MM-DD, reason: …} ${KEPT}`,
    ]);
  });

  it('maxExpiryDays alone refuses no kept domain (it reads a date, which a kept domain has none of)', () => {
    expect(checks([change('a', ['x.example'], ['x.example'])], [{ name: 'short', maxExpiryDays: 30 }])).toEqual([]);
  });
});

describe('maxScopesPerDomain over the run', () => {
  const one: Rule[] = [{ name: 'one', maxScopesPerDomain: 1 }];
  const kept = (scope: string): Change => change(scope, ['x.example'], ['x.example']);
  const message = (count: number, named: string): string =>
    `rule "one": x.example would appear in ${count} scopes, more than 1 (${named}), kept from the live state by drift: keep`;

  it('without a census, counts the written lists: two scopes keeping the domain are each refused, one alone is not', () => {
    expect(checks([kept('a')], one)).toEqual([]);
    expect(checks([kept('a'), kept('b')], one)).toEqual([`team/a rule-max-scopes: ${message(2, 'team/a, team/b')}`, `team/b rule-max-scopes: ${message(2, 'team/a, team/b')}`]);
  });

  it('counts a written scope that holds the domain without keeping it, and a census without the domain adds none', () => {
    const holds = change('b', ['x.example']);
    expect(checks([kept('a'), holds], one, new Map([['y.example', ['team/c']]]))).toEqual([`team/a rule-max-scopes: ${message(2, 'team/a, team/b')}`]);
  });

  it('names the scopes sorted, at most five', () => {
    const census = new Map<string, ScopeKey[]>([['x.example', ['team/f', 'team/e', 'team/d', 'team/c', 'team/b']]]);
    expect(checks([kept('a')], one, census)).toEqual([`team/a rule-max-scopes: ${message(6, 'team/a, team/b, team/c, team/d, team/e, …')}`]);
    census.set('x.example', ['team/e', 'team/d', 'team/c', 'team/b']);
    expect(checks([kept('a')], one, census)).toEqual([`team/a rule-max-scopes: ${message(5, 'team/a, team/b, team/c, team/d, team/e')}`]);
  });

  it('counts only the scopes the rule matches, for a kept domain in a scope it matches; a rule without a maximum counts nothing', () => {
    const census = new Map<string, ScopeKey[]>([['x.example', ['team/b1', 'team/b2', 'team/c']]]);
    const onlyB: Rule[] = [{ ...defined(one[0]), scopes: ['team/a', 'team/b1'] }];
    expect(checks([kept('a')], onlyB, census)).toEqual([`team/a rule-max-scopes: ${message(2, 'team/a, team/b1')}`]);
    expect(checks([kept('a')], [{ ...defined(one[0]), scopes: ['team/b*'] }], census)).toEqual([]);
    expect(checks([kept('a')], [{ name: 'none', deny: ['nothing.example'] }], census)).toEqual([]);
  });
});
