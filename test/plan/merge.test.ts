import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findViolations, mergePlanParts, MergeError, partOfPlan, refusePartAlone, serializePlan, type Plan, type PlanPart, type PrunedPolicy } from '../../src/plan/index.js';
import { parseShard, shardIndexOf } from '../../src/plan/shard.js';
import { buildPlan } from '../support/plan.js';
import { live, liveMap, marked, noAutojoin, NOW, policy, TARGET } from './fixtures.js';
import type { ScopeKey } from '../../src/scope.js';
import type { LiveScope } from '../../src/service/types.js';
import type { Policy } from '../../src/policy/types.js';

/** A random estate: declared scopes with random files and live states, and pruned scopes. */
interface Estate {
  desired: Policy[];
  pruned: PrunedPolicy[];
  live: Map<ScopeKey, LiveScope>;
}

const DOMAINS = ['a.example', 'b.example', 'c.example', 'd.example'];

const estateArbitrary: fc.Arbitrary<Estate> = fc
  .uniqueArray(
    fc.record({
      id: fc.integer({ min: 0, max: 400 }),
      want: fc.subarray(DOMAINS),
      have: fc.option(fc.subarray(DOMAINS, { minLength: 1 })),
      declared: fc.boolean(),
      owner: fc.constantFrom('default', 'other', null),
    }),
    { selector: (scope) => scope.id, maxLength: 40 },
  )
  .map((scopes) => {
    const desired: Policy[] = [];
    const pruned: PrunedPolicy[] = [];
    const states: LiveScope[] = [];
    for (const scope of scopes) {
      const key: ScopeKey = `team/s${scope.id}`;
      if (scope.declared) desired.push(policy(key, scope.want));
      else pruned.push({ ...policy(key, []), removedBy: { commit: 'c0ffee', date: '2025-01-01', subject: 'remove' } });
      const state = scope.have === null ? noAutojoin(key) : live(key, scope.have);
      states.push(scope.owner === null ? state : marked(state, scope.owner));
    }
    return { desired, pruned, live: liveMap(...states) };
  });

function wholePlan(estate: Estate): Plan {
  return buildPlan({ ...estate, target: TARGET, now: NOW });
}

function parts(estate: Estate, total: number): PlanPart[] {
  return Array.from({ length: total }, (_, index) => ({
    file: `part-${index + 1}.json`,
    plan: buildPlan({ ...estate, target: TARGET, now: NOW, shard: { index: index + 1, total } }),
  }));
}

const LIMITS = { maxRemovals: 3, maxRemovalPercent: 50 };

describe('merge-plans: the merged plan is the unsharded plan', () => {
  it('for random estates and N in 1..8: same changes, scopes, drift and not-managed scopes, same limits verdict; the shard parts of the merged plan make it whole', () => {
    const checked = { scopes: 0, changes: 0 };
    fc.assert(
      fc.property(estateArbitrary, fc.integer({ min: 1, max: 8 }), (estate, total) => {
        const whole = wholePlan(estate);
        const merged = mergePlanParts(parts(estate, total));
        expect(merged.shards).toBe(total);
        // The parts record each scope's ownership status (for the checks over the whole); otherwise the plans are one.
        expect(serializePlan({ ...merged, shards: undefined, scopes: merged.scopes.map(({ ownership: _status, ...scope }) => scope) })).toBe(serializePlan(whole));
        expect(merged.scopes.every((scope) => scope.ownership !== undefined)).toBe(true);
        const verdict = (plan: Plan): string[] => findViolations(plan.changes, LIMITS, plan.scopes).map((error) => error.message);
        expect(verdict(merged)).toEqual(verdict(whole));
        const applied = Array.from({ length: total }, (_, index) => partOfPlan(merged, { index: index + 1, total }).changes).flat();
        expect(applied.map((change) => change.key).sort()).toEqual(whole.changes.map((change) => change.key).sort());
        checked.scopes += whole.scopes.length + whole.notManagedHere.length;
        checked.changes += whole.changes.length;
      }),
      { numRuns: 60 },
    );
    // The property held over real cases, not over empty estates.
    expect(checked.scopes).toBeGreaterThan(150);
    expect(checked.changes).toBeGreaterThan(50);
  });

  it('decides the removal limit on the whole: 8 removals over 4 shards pass per part and fail merged', () => {
    const keys = Array.from({ length: 64 }, (_, index): ScopeKey => `team/r${index}`);
    const perShard = new Map<number, ScopeKey[]>();
    for (const key of keys) perShard.set(shardIndexOf(key, 4), [...(perShard.get(shardIndexOf(key, 4)) ?? []), key]);
    const chosen = [1, 2, 3, 4].flatMap((index) => (perShard.get(index) ?? []).slice(0, 2));
    const estate: Estate = { desired: chosen.map((key) => policy(key, [])), pruned: [], live: liveMap(...chosen.map((key) => marked(live(key, ['a.example'])))) };
    const split = parts(estate, 4);
    for (const part of split) expect(findViolations(part.plan.changes, { maxRemovals: 3 }, part.plan.scopes)).toEqual([]);
    const merged = mergePlanParts(split);
    expect(findViolations(merged.changes, { maxRemovals: 3 }, merged.scopes).map((error) => error.message).join()).toMatch(/8 domains/);
  });
});

describe('merge-plans keeps what a part marks', () => {
  it('redacted: the merged plan lists every part redacted scopes, sorted (apply --plan refuses it, as it refuses each part)', () => {
    const keys = Array.from({ length: 16 }, (_, index): ScopeKey => `team/r${index}`);
    const estate: Estate = { desired: keys.map((key) => policy(key, ['b.example'])), pruned: [], live: liveMap(...keys.map((key) => marked(live(key, ['a.example'])))) };
    const split = parts(estate, 2);
    const inPart = (index: number): ScopeKey => keys.find((key) => shardIndexOf(key, 2) === index) as ScopeKey;
    for (const [index, part] of split.entries()) part.plan = { ...part.plan, redacted: [inPart(index + 1)] };
    expect(mergePlanParts(split).redacted).toEqual([inPart(1), inPart(2)].sort());
    expect(mergePlanParts(parts(estate, 2)).redacted).toBeUndefined();
  });
});

describe('merge-plans refuses parts that are not one run', () => {
  const estate: Estate = {
    desired: Array.from({ length: 30 }, (_, index) => policy(`team/t${index}`, ['a.example'])),
    pruned: [],
    live: new Map(),
  };

  it.each([
    ['a missing shard', (split: PlanPart[]) => split.slice(1), /shard 1\/3 missing/],
    ['a duplicated shard', (split: PlanPart[]) => [...split, { ...split[0], file: 'again.json' } as PlanPart], /part-1\.json and again\.json are both shard 1\/3/],
    ['a different N', (split: PlanPart[]) => [...split.slice(0, 2), ...parts(estate, 4).slice(2, 3)], /every part must be one of the same N/],
    ['another owner', (split: PlanPart[]) => [split[0], split[1], { ...split[2], plan: { ...split[2]?.plan, owner: 'other' } }] as PlanPart[], /different contexts \(owner differ/],
    ['another target', (split: PlanPart[]) => [split[0], split[1], { ...split[2], plan: { ...split[2]?.plan, target: 'https://elsewhere.example' } }] as PlanPart[], /different contexts \(target differ/],
    ['a whole plan', (split: PlanPart[]) => [...split, { file: 'whole.json', plan: wholePlan(estate) }], /whole\.json is not a shard plan/],
    ['an overlapping part', (split: PlanPart[]) => [split[0], split[1], { ...split[2], plan: { ...split[2]?.plan, scopes: [...(split[2]?.plan.scopes ?? []), ...(split[0]?.plan.scopes ?? [])] } }] as PlanPart[], /holds team\/t\d+, which is not in shard 3\/3/],
  ])('%s', (_name, edit, message) => {
    const edited = edit(parts(estate, 3));
    expect(() => mergePlanParts(edited)).toThrow(MergeError);
    expect(() => mergePlanParts(edited)).toThrow(message);
  });

  it('a part without the ownership status of its scopes (an older release\'s), named', () => {
    const split = parts(estate, 3);
    const old = split[1] as PlanPart;
    old.plan = { ...old.plan, scopes: old.plan.scopes.map(({ ownership: _status, ...scope }) => scope) };
    expect(() => mergePlanParts(split)).toThrow(/^part-2\.json records no ownership status for team\/t\d+/u);
  });

  it('a part without the census its counting rule needs, named', () => {
    const counting = (plan: Plan): Plan => ({ ...plan, context: { ...(plan.context as NonNullable<Plan['context']>), rules: [{ name: 'one', maxScopesPerDomain: 1 }] }, census: [] });
    const split = parts(estate, 3).map((part) => ({ ...part, plan: counting(part.plan) }));
    expect(mergePlanParts(split).census).toEqual([]);
    const { census: _census, ...without } = split[2]?.plan as Plan;
    split[2] = { file: 'part-3.json', plan: without };
    expect(() => mergePlanParts(split)).toThrow(/^part-3\.json records no census of the domains its rules count/u);
  });

  it('nothing to merge', () => {
    expect(() => mergePlanParts([])).toThrow(/needs the shard plans/);
  });
});

describe('apply --plan --shard', () => {
  const estate: Estate = { desired: Array.from({ length: 12 }, (_, index) => policy(`team/p${index}`, ['a.example'])), pruned: [], live: new Map() };

  it('refuses a part applied alone, and a merged plan split into another N', () => {
    const split = parts(estate, 2);
    expect(() => refusePartAlone(split[0]?.plan as Plan, 'part-1.json')).toThrow(/part-1\.json is shard 1\/2 alone, never applied on its own/);
    expect(() => partOfPlan(split[0]?.plan as Plan, parseShard('1/2'))).toThrow(/merge the parts first/);
    const merged = mergePlanParts(split);
    expect(() => partOfPlan(merged, parseShard('1/3'))).toThrow(/merged from 2 shards; --shard 1\/3 splits it into 3: use --shard K\/2/);
    expect(() => refusePartAlone(merged, 'plan.json')).not.toThrow();
  });

  it('a shard part of the merged plan is exactly the plan that shard made', () => {
    const split = parts(estate, 2);
    const merged = mergePlanParts(split);
    for (const [index, part] of split.entries()) {
      const ofMerged = partOfPlan(merged, { index: index + 1, total: 2 });
      expect(ofMerged.changes).toEqual(part.plan.changes);
      expect(ofMerged.scopes).toEqual(part.plan.scopes);
    }
  });
});

describe('merge-plans: a missing shard', () => {
  it('names the first five missing shards and counts the rest (the old error listed every one)', () => {
    const estate: Estate = { desired: [policy('team/a', ['a.example'])], pruned: [], live: liveMap() };
    const all = parts(estate, 256);
    expect(() => mergePlanParts(all.slice(0, 1))).toThrow(MergeError);
    expect(() => mergePlanParts(all.slice(0, 1))).toThrow(/^shard 2\/256, 3\/256, 4\/256, 5\/256, 6\/256, and 250 more missing: a merged plan needs every shard 1\.\.256$/u);
  });
});
