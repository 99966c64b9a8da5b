/**
 * src/plan/merge.ts where test/plan/merge.test.ts does not reach: what each part records besides
 * its changes (its time, drift, redacted scopes, scopes declared outside, behind, owner moves,
 * census), merged and then split again by shard; the part of a saved plan an apply writes; and
 * the words of the refusals. Written for its mutation score (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { mergePlanParts, MergeError, partOfPlan, savedPlanPart, type PlanPart } from '../../src/plan/merge.js';
import { shardIndexOf } from '../../src/plan/shard.js';
import { compareScopeKeys, type ScopeKey } from '../../src/scope.js';
import type { DriftReport, NotManagedHere, Plan } from '../../src/plan/types.js';
import { buildPlan } from '../support/plan.js';
import { defined } from '../support/defined.js';
import { live, liveMap, NOW, policy, TARGET } from './fixtures.js';

const keys = Array.from({ length: 12 }, (_, index): ScopeKey => `team/m${index}`);
const inShard = (index: number): ScopeKey[] => keys.filter((key) => shardIndexOf(key, 2) === index);
/** A scope of shard 1 that sorts after `low`, a scope of shard 2: merged lists that stay unsorted show it. */
const [high, low] = ((): [ScopeKey, ScopeKey] => {
  const candidate = inShard(1).find((key) => inShard(2).some((other) => compareScopeKeys(key, other) > 0));
  const first = defined(candidate, 'a shard 1 key after a shard 2 key');
  return [first, defined(inShard(2).find((other) => compareScopeKeys(first, other) > 0))];
})();

const estate = { desired: keys.map((key) => policy(key, ['b.example'])), live: liveMap(...keys.map((key) => live(key, ['a.example']))) };

/** The plan of every scope, unsharded. */
function whole(): Plan {
  return buildPlan({ ...estate, target: TARGET, now: NOW });
}

/** Parts 1/2 and 2/2 of the estate, each with what `edit` adds to it. */
function parts(edit: (plan: Plan, index: number) => Partial<Plan> = () => ({})): PlanPart[] {
  return [1, 2].map((index) => {
    const plan = buildPlan({ ...estate, target: TARGET, now: NOW, shard: { index, total: 2 } });
    return { file: `part-${index}.json`, plan: { ...plan, ...edit(plan, index) } };
  });
}

const drift = (key: ScopeKey): DriftReport => ({ key, origin: 'drift', live: ['a.example'], outside: { added: ['a.example'], removed: [], fields: [] } });
const notManaged = (key: ScopeKey): NotManagedHere => ({ key, owner: 'other' });
const outside = (key: ScopeKey, line: number) => ({ key, file: 'elsewhere/team.autojoin.yaml', line });
const census = (key: ScopeKey) => ({ key, domains: ['a.example'], fingerprint: `f-${key}` });
const byShard = <T>(index: number, first: T, second: T): T => (index === 1 ? first : second);

describe('mergePlanParts: what each part records', () => {
  it('is dated by its earliest part, whichever file comes first', () => {
    const times = ['2025-01-02T03:04:07.000Z', '2025-01-02T03:04:05.000Z'];
    const merged = mergePlanParts(parts((_plan, index) => ({ createdAt: defined(times[index - 1]) })));
    expect(merged.createdAt).toBe('2025-01-02T03:04:05.000Z');
    expect(mergePlanParts(parts((_plan, index) => ({ createdAt: defined(times[2 - index]) }))).createdAt).toBe('2025-01-02T03:04:05.000Z');
  });

  it('drift, not-managed and redacted scopes of every part, sorted by key', () => {
    const merged = mergePlanParts(
      parts((_plan, index) => {
        const key = byShard(index, high, low);
        return { drift: [drift(key)], notManagedHere: [notManaged(key)], redacted: [key] };
      }),
    );
    expect(merged.drift.map(({ key }) => key)).toEqual([low, high]);
    expect(merged.notManagedHere.map(({ key }) => key)).toEqual([low, high]);
    expect(merged.redacted).toEqual([low, high]);
  });

  it('the scopes declared outside the paths, each once (every part reads the same tree), sorted by key', () => {
    const merged = mergePlanParts(parts((_plan, index) => ({ declaredOutside: byShard(index, [outside(high, 3), outside(low, 1)], [outside(low, 1), outside('team/z', 9)]) })));
    expect(merged.declaredOutside).toEqual([outside(low, 1), outside(high, 3), outside('team/z', 9)]);
  });

  it('behind scopes and owner moves of every part, sorted by key', () => {
    const merged = mergePlanParts(parts((_plan, index) => ({ behind: [{ key: byShard(index, high, low), commit: `c${index}` }], ownerMoves: [byShard(index, high, low)] })));
    expect(merged.behind).toEqual([
      { key: low, commit: 'c2' },
      { key: high, commit: 'c1' },
    ]);
    expect(merged.ownerMoves).toEqual([low, high]);
  });

  it('none of them in any part: none in the merged plan', () => {
    const merged = mergePlanParts(parts());
    for (const field of ['redacted', 'declaredOutside', 'behind', 'ownerMoves', 'census', 'notes']) expect(merged).not.toHaveProperty(field);
  });

  it('the census of every part that kept one, sorted by key, kept when any part kept one', () => {
    const merged = mergePlanParts(parts((_plan, index) => ({ census: [census(byShard(index, high, low))] })));
    expect(merged.census).toEqual([census(low), census(high)]);
    expect(mergePlanParts(parts((_plan, index) => (index === 1 ? { census: [census(high)] } : {}))).census).toEqual([census(high)]);
  });

  it('parts made without a run context merge (no counting rule to look for)', () => {
    const withoutContext = parts().map(({ file, plan: { context: _context, ...plan } }) => ({ file, plan }));
    expect(mergePlanParts(withoutContext)).not.toHaveProperty('context');
  });
});

describe('partOfPlan: a whole plan split by shard', () => {
  it('keeps only the shard’s changes, scopes, drift, not-managed, behind scopes and owner moves', () => {
    const plan: Plan = { ...whole(), drift: [drift(high), drift(low)], notManagedHere: [notManaged(high), notManaged(low)], behind: [{ key: high, commit: 'c' }, { key: low, commit: 'c' }], ownerMoves: [high, low] };
    const second = partOfPlan(plan, { index: 2, total: 2 });
    expect(second.changes.map(({ key }) => key)).toEqual(whole().changes.map(({ key }) => key).filter((key) => inShard(2).includes(key)));
    expect(second.scopes.map(({ key }) => key).sort()).toEqual([...inShard(2)].sort());
    expect(second.drift).toEqual([drift(low)]);
    expect(second.notManagedHere).toEqual([notManaged(low)]);
    expect(second.behind).toEqual([{ key: low, commit: 'c' }]);
    expect(second.ownerMoves).toEqual([low]);
  });

  it('adds no behind scopes nor owner moves where the plan has none', () => {
    const first = partOfPlan(whole(), { index: 1, total: 2 });
    expect(first).not.toHaveProperty('behind');
    expect(first).not.toHaveProperty('ownerMoves');
  });
});

describe('savedPlanPart', () => {
  it('the whole plan without --shard; with it, the shard’s part', () => {
    const plan = whole();
    expect(savedPlanPart(plan, 'plan.json', undefined)).toBe(plan);
    expect(savedPlanPart(plan, 'plan.json', '2/2')).toEqual(partOfPlan(plan, { index: 2, total: 2 }));
    expect(savedPlanPart(plan, 'plan.json', '2/2').scopes.length).toBeLessThan(plan.scopes.length);
  });

  it('refuses a shard plan alone, with or without --shard', () => {
    const [part] = parts();
    for (const shard of [undefined, '1/2']) {
      expect(() => savedPlanPart(defined(part).plan, 'part-1.json', shard)).toThrow(/^part-1\.json is shard 1\/2 alone, never applied on its own/u);
    }
  });
});

describe('merge-plans: the refusals’ words', () => {
  function refusal(edited: PlanPart[]): MergeError {
    try {
      mergePlanParts(edited);
    } catch (error) {
      if (error instanceof MergeError) return error;
      throw error;
    }
    throw new Error('merge-plans merged the parts');
  }

  it('a plan that is not a part says whether it was merged already', () => {
    const merged = mergePlanParts(parts());
    expect(refusal([...parts(), { file: 'whole.json', plan: whole() }]).message).toBe('whole.json is not a shard plan (made without --shard)');
    expect(refusal([...parts(), { file: 'merged.json', plan: merged }]).message).toBe('merged.json is not a shard plan (made without --shard; it was merged from 2 shards already)');
    expect(refusal([]).name).toBe('MergeError');
  });

  it('every field that differs, in alphabetical order', () => {
    const edited = parts((_plan, index) => (index === 2 ? { target: 'https://elsewhere.example', owner: 'other', projects: [] } : {}));
    expect(refusal(edited).message).toBe('part-2.json and part-1.json were made in different contexts (owner, projects, target differ): merge only the parts of one plan run');
  });
});
