/**
 * src/plan/safety.ts where test/plan/safety.test.ts does not reach: only clears by pruning count
 * towards safety.maxRemovalPercent's share of deleted policy files, never a clear a file asks for.
 * Written for its mutation score (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { checkSafety, PrunePercentError, TooManyRemovalsError, UnsafePlanError } from '../../src/plan/safety.js';
import { hint } from '../../src/hint.js';
import { buildPlan } from '../support/plan.js';
import { live, liveMap, marked, NOW, policy, TARGET } from './fixtures.js';

const keys = ['team/a', 'team/b', 'team/c', 'team/d', 'team/e'] as const;
const active = liveMap(...keys.map((key) => marked(live(key, ['k.com']))));

describe('safety.maxRemovalPercent for deleted policy files', () => {
  it('counts the clears by pruning only: files that ask for domains: [] are not deleted files', () => {
    const plan = buildPlan({
      desired: [policy('team/a', []), policy('team/b', []), policy('team/c', []), policy('team/d', ['k.com'])],
      live: active,
      pruned: [policy('team/e', ['k.com'])],
      target: TARGET,
      now: NOW,
    });
    expect(plan.changes.filter((change) => change.kind === 'clear')).toHaveLength(4);
    expect(() => checkSafety(plan, { maxRemovalPercent: 50 })).not.toThrow();
  });

  it('the pruned clears alone over the share are refused, naming them only', () => {
    const plan = buildPlan({
      desired: [policy('team/a', []), policy('team/b', ['k.com'])],
      live: active,
      pruned: [policy('team/c', ['k.com']), policy('team/d', ['k.com']), policy('team/e', ['k.com'])],
      target: TARGET,
      now: NOW,
    });
    let error: unknown;
    try {
      checkSafety(plan, { maxRemovalPercent: 50 });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(PrunePercentError);
    expect((error as PrunePercentError).scopes).toEqual(['team/c', 'team/d', 'team/e']);
    expect((error as PrunePercentError).name).toBe('PrunePercentError');
    expect((error as PrunePercentError).hints).toEqual([hint('maxRemovalPercent', 60)]);
  });

  it('without the setting nothing is refused for deleted files', () => {
    const plan = buildPlan({ desired: [], live: active, pruned: keys.map((key) => policy(key, ['k.com'])), target: TARGET, now: NOW });
    expect(() => checkSafety(plan, {})).not.toThrow();
  });

  it('four scopes with active autojoin are enough to be held to it', () => {
    const four = liveMap(...keys.slice(0, 4).map((key) => marked(live(key, ['k.com']))));
    const plan = buildPlan({ desired: [policy('team/a', ['k.com'])], live: four, pruned: keys.slice(1, 4).map((key) => policy(key, ['k.com'])), target: TARGET, now: NOW });
    expect(() => checkSafety(plan, { maxRemovalPercent: 50 })).toThrow(PrunePercentError);
  });
});

describe('UnsafePlanError', () => {
  it('by name, with no override unless given, and itself as its only violation', () => {
    const error = new UnsafePlanError('refused', ['team/a']);
    expect(error.name).toBe('UnsafePlanError');
    expect(error.hints).toEqual([]);
    expect(error.violations).toEqual([error]);
    expect(error.scopes).toEqual(['team/a']);
  });

  it('each limit names the one override that lets the plan through', () => {
    expect(new TooManyRemovalsError(7, 3, ['team/a']).hints).toEqual([hint('maxRemovals', 7)]);
  });
});
