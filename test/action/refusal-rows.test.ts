/**
 * The job summary's refusal rows are mapped from the verdict's refusals (src/commands/verdict.ts),
 * not from the error classes: each row names the figures the verdict carries per scope (a scope's
 * domains removed of its total, the active scopes cleared, each owner, each marker's commit).
 * The rows that no workflow test reaches are pinned here.
 */
import { describe, expect, it } from 'vitest';
import { refusalOf, reviewerCautions } from '../../src/action/refusal.js';
import { refusalsOfError } from '../../src/commands/verdict.js';
import { PrunePercentError, RemovalPercentError, UnintendedClearError, type UnsafePlanError } from '../../src/plan/safety.js';
import { OwnedElsewhereError } from '../../src/reconcile/ownership-refusal.js';
import { BehindCheckoutError } from '../../src/history/behind.js';
import { toRunError } from '../../src/output/exit-codes.js';
import { defined } from '../support/defined.js';

/** The safety limits as apply throws them: the first error, naming each violation. */
function refused(...violations: UnsafePlanError[]): UnsafePlanError {
  const first = defined(violations[0]);
  first.violations = violations;
  return first;
}

function rows(error: unknown): { check: string; limit: string; count: string; override: string }[] {
  return defined(refusalOf(error)).rows.map(({ check, limit, count, override }) => ({ check, limit, count, override }));
}

describe('refusal rows from the verdict', () => {
  it("a scope's share of removed domains names each scope's figures; the active scopes cleared name the count of each", () => {
    const percent = new RemovalPercentError([{ key: 'team/a', removed: 3, total: 4, percent: 75 }, { key: 'team/b', removed: 1, total: 2, percent: 50 }], 40);
    const pruned = new PrunePercentError(['team/c', 'team/d'], 3, 50);
    // Wrapped as the front ends see it: the row comes from the refusal the RunError stands for.
    expect(rows(toRunError(refused(percent, pruned)))).toEqual([
      { check: 'safety limit max-removal-percent', limit: "40% of a scope's domains", count: 'team/a: 3 of 4 domains, team/b: 1 of 2 domains', override: 'maxRemovalPercent: 75, or `safety.maxRemovalPercent` in autojoin-sync.yaml' },
      { check: 'safety limit max-removal-percent', limit: '50% of the active scopes', count: '2 of 3 scopes with active autojoin cleared (deleted policy files)', override: 'maxRemovalPercent: 67, or `safety.maxRemovalPercent` in autojoin-sync.yaml' },
    ]);
  });

  it('a clear without `domains: []`, and its caution to a reviewer', () => {
    const clear = refused(new UnintendedClearError(['team/a']));
    expect(rows(clear)).toEqual([{ check: 'clear without `domains: []`', limit: 'a scope is cleared only when its file says `domains: []` (or the file is deleted)', count: '1 scope cleared (team/a)', override: 'allowEmpty: true, or write `domains: []` in the file' }]);
    expect(reviewerCautions(refusalsOfError(clear) ?? [])).toEqual([
      'clear without `domains: []`: 1 scope cleared (team/a), over the limit of a scope is cleared only when its file says `domains: []` (or the file is deleted). To let it through: write `domains: []` in the policy file of each scope to clear, in this pull request',
    ]);
  });

  it("each scope's owner and each marker's commit; a shallow clone asks for the whole history", () => {
    expect(rows(new OwnedElsewhereError([{ key: 'team/a', owner: 'platform' }], 'me'))[0]?.count).toBe('1 scope owned elsewhere (team/a: platform)');
    const behind = rows(new BehindCheckoutError([{ key: 'team/a', commit: 'abcdef0123456789abcdef' }]))[0];
    expect(behind?.count).toBe('1 scope written from a commit this checkout does not contain (team/a: commit abcdef012345)');
    expect(behind?.override).toContain('allowBehind: team/a');
    const shallow = rows(new BehindCheckoutError([{ key: 'team/a', commit: 'abcdef0123456789abcdef', missing: true }]))[0];
    expect(shallow?.override).toBe('check out the whole history (`fetch-depth: 0` for actions/checkout), then run again');
  });
});
