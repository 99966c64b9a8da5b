import assert from 'node:assert/strict';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../support/plan.js';
import {
  checkSafety,
  PrunePercentError,
  RemovalPercentError,
  TooManyRemovalsError,
  UnintendedClearError,
  UnsafePlanError,
} from '../../src/plan/safety.js';
import type { Plan, SafetyLimits } from '../../src/plan/types.js';
import type { Policy } from '../../src/policy/types.js';
import { live, liveMap, noAutojoin, NOW, policy, TARGET, marked } from './fixtures.js';
import type { LiveScope } from '../../src/service/types.js';
import { useWording } from '../../src/hint.js';
import { cliWording } from '../../src/cli/cli-wording.js';

// The messages asserted here are worded as the CLI words them (src/hint.ts).
useWording(cliWording);

function planOf(desired: Policy[], current: LiveScope[], pruned: Policy[] = []): Plan {
  return buildPlan({ desired, live: liveMap(...current), pruned, target: TARGET, now: NOW });
}

function thrown(plan: Plan, limits: SafetyLimits): UnsafePlanError {
  try {
    checkSafety(plan, limits);
  } catch (error) {
    if (error instanceof UnsafePlanError) return error;
    throw error;
  }
  throw new Error('checkSafety accepted the plan');
}

const domains = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}.com`);

describe('checkSafety', () => {
  it('accepts any plan when no limit is set, except unintended clears', () => {
    const plan = planOf([policy('team/a', ['keep.com'])], [live('team/a', ['keep.com', ...domains('x', 50)])]);
    expect(() => checkSafety(plan, {})).not.toThrow();
  });

  describe('--max-removals', () => {
    const plan = planOf(
      [policy('team/a', ['a0.com']), policy('team/b', []), policy('team/c', ['new.com'])],
      [live('team/a', domains('a', 4)), live('team/b', domains('b', 3))],
    );

    it('refuses more removals in total than the limit, naming count, limit, scopes and override', () => {
      const error = thrown(plan, { maxRemovals: 5 });
      expect(error).toBeInstanceOf(TooManyRemovalsError);
      expect(error).toBeInstanceOf(UnsafePlanError);
      expect(error.message).toBe(
        'plan removes 6 domains, more than the limit of 5 (--max-removals or safety.maxRemovals), from team/b, team/a; to go ahead, run again with --max-removals 6',
      );
      expect(error.scopes).toEqual(['team/b', 'team/a']);
    });

    it('accepts removals up to the limit, and creates never count', () => {
      expect(() => checkSafety(plan, { maxRemovals: 6 })).not.toThrow();
      const creates = planOf([policy('team/n', domains('n', 30))], []);
      expect(() => checkSafety(creates, { maxRemovals: 0 })).not.toThrow();
    });

    it('names at most five scopes and counts the rest', () => {
      const many = planOf(
        Array.from({ length: 7 }, (_, i) => policy(`team/s${i}`, ['keep.com'])),
        Array.from({ length: 7 }, (_, i) => live(`team/s${i}`, ['keep.com', 'gone.com'])),
      );
      expect(thrown(many, { maxRemovals: 0 }).message).toContain('from team/s0, team/s1, team/s2, team/s3, team/s4 and 2 more;');
    });
  });

  describe('safety.maxRemovalPercent', () => {
    it('refuses an update removing more than the percent of a scope, naming removed/total and percent', () => {
      const plan = planOf([policy('team/a', ['a0.com'])], [live('team/a', domains('a', 4))]);
      const error = thrown(plan, { maxRemovalPercent: 50 });
      assert(error instanceof RemovalPercentError, 'expected a RemovalPercentError');
      expect(error.message).toBe(
        'plan removes more than 50% of the domains of a scope (--max-removal-percent or safety.maxRemovalPercent): team/a 3/4 (75%); to go ahead, run again with --max-removal-percent 75 (or set safety.maxRemovalPercent in autojoin-sync.yaml)',
      );
      expect(error.removals).toEqual([{ key: 'team/a', removed: 3, total: 4, percent: 75 }]);
    });

    it('accepts exactly the percent, and lists every scope over it', () => {
      const atLimit = planOf([policy('team/a', ['a0.com', 'a1.com'])], [live('team/a', domains('a', 4))]);
      expect(() => checkSafety(atLimit, { maxRemovalPercent: 50 })).not.toThrow();
      const two = planOf(
        [policy('team/a', ['a0.com']), policy('team/b', ['b0.com'])],
        [live('team/a', domains('a', 4)), live('team/b', domains('b', 6))],
      );
      const error = thrown(two, { maxRemovalPercent: 50 });
      expect(error.message).toContain('of 2 scopes (--max-removal-percent or safety.maxRemovalPercent): team/a 3/4 (75%), team/b 5/6 (83.3%);');
      expect(error.message).toContain('run again with --max-removal-percent 84');
      expect(error.scopes).toEqual(['team/a', 'team/b']);
    });

    it('exempts scopes with fewer than 4 existing domains', () => {
      const small = planOf([policy('team/a', ['a0.com'])], [live('team/a', domains('a', 3))]);
      expect(() => checkSafety(small, { maxRemovalPercent: 10 })).not.toThrow();
    });

    it('never counts creates or explicit clears', () => {
      const plan = planOf([policy('team/n', ['n.com']), policy('team/c', [])], [live('team/c', domains('c', 10))]);
      expect(() => checkSafety(plan, { maxRemovalPercent: 0 })).not.toThrow();
    });
  });

  describe('clears', () => {
    const pruned = planOf([], [marked(live('team/gone', ['x.com', 'y.com']))], [policy('team/gone', ['x.com'])]);
    /** A clear no file asked for: a saved plan whose change lacks explicitEmpty. */
    const unasked = (): Plan => {
      const plan = planOf([policy('team/c', [])], [live('team/c', ['x.com'])]);
      for (const change of plan.changes) change.explicitEmpty = false;
      return plan;
    };

    it('a clear of a deleted policy file needs no --allow-empty: the deletion was reviewed', () => {
      expect(() => checkSafety(pruned, {})).not.toThrow();
    });

    it('but counts against --max-removals like any removal', () => {
      const error = thrown(pruned, { maxRemovals: 1 });
      expect(error).toBeInstanceOf(TooManyRemovalsError);
      expect(error.message).toContain('plan removes 2 domains, more than the limit of 1');
    });

    it('refuses a clear no file asked for without --allow-empty, naming scope and override', () => {
      const error = thrown(unasked(), {});
      expect(error).toBeInstanceOf(UnintendedClearError);
      expect(error.message).toBe(
        'plan clears team/c (deactivates autojoin) though no policy file says domains: []; to go ahead, run again with --allow-empty, or write domains: [] in the file',
      );
      expect(() => checkSafety(unasked(), { allowEmpty: true })).not.toThrow();
      const explicit = planOf([policy('team/c', [])], [live('team/c', ['x.com'])]);
      expect(() => checkSafety(explicit, {})).not.toThrow();
    });
  });

  describe('safety.maxRemovalPercent for deleted policy files', () => {
    const keys = ['team/a', 'team/b', 'team/c', 'team/d', 'team/e'];
    /** Five scopes with active autojoin, the first `deleted` of them pruned; plus one without autojoin. */
    const deleting = (deleted: number): Plan =>
      planOf(
        keys.slice(deleted).map((key) => policy(key, ['k.com'])),
        [...keys.map((key) => marked(live(key, ['k.com']))), noAutojoin('team/idle')],
        [...keys.slice(0, deleted).map((key) => policy(key, ['k.com'])), policy('team/idle', ['old.com'])],
      );

    it('refuses clearing more than the percent of the scopes with active autojoin, naming the override', () => {
      const error = thrown(deleting(3), { maxRemovalPercent: 50 });
      expect(error).toBeInstanceOf(PrunePercentError);
      expect(error.scopes).toEqual(['team/a', 'team/b', 'team/c']);
      expect(error.message).toBe(
        'plan clears 3 of 5 scopes with active autojoin (60%) because their policy files were deleted, more than safety.maxRemovalPercent (50%): ' +
          'team/a, team/b, team/c; to go ahead, run again with --max-removal-percent 60 (or set safety.maxRemovalPercent in autojoin-sync.yaml), or add the scopes to prune.keep to leave them alone',
      );
    });

    it('accepts up to the percent, and exempts plans with fewer than 4 active scopes', () => {
      expect(() => checkSafety(deleting(2), { maxRemovalPercent: 40 })).not.toThrow();
      const small = planOf([policy('team/a', ['k.com'])], [live('team/a', ['k.com']), live('team/b', ['k.com'])], [policy('team/b', ['k.com'])]);
      expect(() => checkSafety(small, { maxRemovalPercent: 10 })).not.toThrow();
    });
  });

  it('reports every limit broken at once, the first as the error', () => {
    const plan = planOf(
      [policy('team/a', ['a0.com']), policy('team/c', [])],
      [live('team/a', domains('a', 8)), live('team/c', ['x.com'])],
    );
    for (const change of plan.changes) if (change.kind === 'clear') change.explicitEmpty = false;
    const error = thrown(plan, { maxRemovals: 2, maxRemovalPercent: 20 });
    expect(error).toBeInstanceOf(UnintendedClearError);
    expect(error.violations.map((violation) => violation.name)).toEqual(['UnintendedClearError', 'TooManyRemovalsError', 'RemovalPercentError']);
    expect(error.message).toContain('--allow-empty');
    expect(error.message).toContain(' — also: plan removes 8 domains, more than the limit of 2');
    expect(error.message).toContain(' — also: plan removes more than 20% of the domains of a scope');
    expect(error.message).not.toContain('\n');
  });
});
