/**
 * The write checks as pure functions (src/plan/write-checks.ts): the origin of each written domain
 * is derived from the change, and the entry and cross-scope rules apply to the live-only ones.
 */
import { describe, expect, it } from 'vitest';
import { writeProblems, writtenOrigins } from '../../src/plan/write-checks.js';
import type { Change } from '../../src/plan/types.js';
import type { Rule } from '../../src/policy/types.js';
import type { ScopeKey } from '../../src/scope.js';

function merged(scope: string, after: string[], outsideAdded: string[]): Change {
  return {
    kind: 'update', key: `team/${scope}`, scope, scopeType: 'team', componentId: 'c1', before: [], after, reason: 'declared',
    origin: 'conflict', outside: { added: outsideAdded, removed: [], fields: [] },
  };
}

describe('write checks', () => {
  it('a domain added outside and kept in the list is live-only; the files\' own are the policy\'s', () => {
    expect(writtenOrigins(merged('a', ['a.com', 'x.example'], ['x.example', 'gone.example']))).toEqual([
      { domain: 'a.com', from: 'policy' },
      { domain: 'x.example', from: 'live' },
    ]);
  });

  it('requireExpiry refuses a live-only domain but not the files\' entries (the loader checked those with their dates)', () => {
    const rules: Rule[] = [{ name: 'expire', requireExpiry: ['*.example'] }];
    const problems = writeProblems([merged('a', ['p.example', 'x.example'], ['x.example'])], rules, '2026-03-01');
    expect(problems.map((problem) => [problem.key, problem.check, problem.message.includes('x.example')])).toEqual([['team/a', 'rule-require-expiry', true]]);
  });

  it('a warning-level rule and a rule for other scopes refuse nothing', () => {
    const rules: Rule[] = [
      { name: 'warn', requireExpiry: ['*.example'], level: 'warning' },
      { name: 'elsewhere', requireExpiry: ['*.example'], scopes: ['team/b*'] },
    ];
    expect(writeProblems([merged('a', ['x.example'], ['x.example'])], rules, '2026-03-01')).toEqual([]);
  });

  it('maxScopesPerDomain counts the census of unwritten scopes and the new lists of written ones', () => {
    const rules: Rule[] = [{ name: 'one', maxScopesPerDomain: 1 }];
    const change = merged('a', ['a.com', 'x.example'], ['x.example']);
    // team/a held it live before too: counted once, by its new list.
    const census = new Map<string, ScopeKey[]>([['x.example', ['team/a']]]);
    expect(writeProblems([change], rules, '2026-03-01', census)).toEqual([]);
    census.set('x.example', ['team/a', 'team/b']);
    expect(writeProblems([change], rules, '2026-03-01', census).map((problem) => problem.check)).toEqual(['rule-max-scopes']);
    // Written without it in team/b: the count falls back to one.
    const dropped: Change = { ...merged('b', ['b.com'], []), origin: undefined };
    expect(writeProblems([change, dropped], rules, '2026-03-01', census)).toEqual([]);
  });
});
