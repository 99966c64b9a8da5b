/**
 * src/plan/merge.ts where test/plan/merge.test.ts does not reach: the notes of the parts merged
 * (the ownership note kept only when no part's scope showed metadata), and which rules make every
 * plan keep its census. Written for its mutation score (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { countsScopes, mergePlanParts, type PlanPart } from '../../src/plan/merge.js';
import { CANNOT_READ } from '../../src/plan/ownership.js';
import type { OwnershipStatus } from '../../src/plan/types.js';
import { buildPlan } from '../support/plan.js';
import { defined } from '../support/defined.js';
import { live, liveMap, NOW, policy, TARGET } from './fixtures.js';

const keys = Array.from({ length: 12 }, (_, index) => `team/n${index}` as const);

/** Two shard parts of one estate, each scope shown with `ownership`, and each part's notes. */
function parts(ownership: OwnershipStatus, notes: [string[], string[]]): PlanPart[] {
  const estate = { desired: keys.map((key) => policy(key, ['b.example'])), live: liveMap(...keys.map((key) => live(key, ['a.example']))) };
  return notes.map((partNotes, index) => {
    const plan = buildPlan({ ...estate, target: TARGET, now: NOW, shard: { index: index + 1, total: 2 } });
    return { file: `part-${index + 1}.json`, plan: { ...plan, scopes: plan.scopes.map((scope) => ({ ...scope, ownership })), notes: partNotes } };
  });
}

describe('mergePlanParts: notes', () => {
  it('every part’s notes, each once, in the order the parts give them', () => {
    expect(mergePlanParts(parts('noMetadata', [['x', CANNOT_READ.ownership], ['y', 'x']])).notes).toEqual(['x', CANNOT_READ.ownership, 'y']);
  });

  it('the ownership note goes once any part’s scope showed metadata, marked or not; the others stay', () => {
    expect(mergePlanParts(parts('marked', [['x', CANNOT_READ.ownership], [CANNOT_READ.ownership]])).notes).toEqual(['x']);
    expect(mergePlanParts(parts('unmarked', [[CANNOT_READ.ownership], ['y']])).notes).toEqual(['y']);
    expect(mergePlanParts(parts('marked', [[CANNOT_READ.ownership], []]))).not.toHaveProperty('notes');
  });

  it('one part’s scopes showing metadata is enough, when the other part’s showed none', () => {
    const [unread, shown] = parts('noMetadata', [[CANNOT_READ.ownership], []]);
    const marked = { ...defined(shown), plan: { ...defined(shown).plan, scopes: defined(shown).plan.scopes.map((scope) => ({ ...scope, ownership: 'marked' as const })) } };
    expect(mergePlanParts([defined(unread), marked])).not.toHaveProperty('notes');
  });

  it('no part with notes: none', () => {
    expect(mergePlanParts(parts('noMetadata', [[], []]))).not.toHaveProperty('notes');
  });
});

describe('countsScopes', () => {
  it('an error-level rule counting scopes per domain (error unless it says otherwise) keeps the census; nothing else does', () => {
    expect(countsScopes(undefined)).toBe(false);
    expect(countsScopes([])).toBe(false);
    expect(countsScopes([{ maxScopesPerDomain: 3 }])).toBe(true);
    expect(countsScopes([{ maxScopesPerDomain: 3, level: 'error' }])).toBe(true);
    expect(countsScopes([{ maxScopesPerDomain: 3, level: 'warning' }])).toBe(false);
    expect(countsScopes([{ level: 'error' }])).toBe(false);
    expect(countsScopes(['maxScopesPerDomain', null, [{ maxScopesPerDomain: 3 }]])).toBe(false);
    expect(countsScopes([{ maxScopesPerDomain: 3, level: 'warning' }, { maxScopesPerDomain: 2 }])).toBe(true);
  });
});
