/**
 * src/plan/safety.ts where test/plan/safety.test.ts does not reach: only clears by pruning count
 * towards safety.maxRemovalPercent's share of deleted policy files, never a clear a file asks for.
 * Written for its mutation score (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { checkSafety, PrunePercentError } from '../../src/plan/safety.js';
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
  });
});
