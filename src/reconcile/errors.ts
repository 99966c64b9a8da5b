import type { ScopeKey } from '../scope.js';
import { firstItems } from '../text.js';

/**
 * A saved plan no longer matches the service: the live state of some of its scopes changed
 * after the plan was made. Nothing has been written when this is thrown.
 */
export class StalePlanError extends Error {
  constructor(readonly moved: ScopeKey[]) {
    super(
      `the saved plan is stale: the live state of ${moved.length} scope(s) changed since it was made ` +
        `(${preview(moved)}); nothing was written. Make a new plan and apply that.`,
    );
    this.name = 'StalePlanError';
  }
}

/**
 * A saved plan made against one service cannot be applied to another: the fingerprint of a
 * scope without autojoin is the same everywhere, so the stale check alone would not notice.
 */
export class PlanTargetError extends Error {
  constructor(planTarget: string, target: string) {
    super(`the saved plan was made against ${planTarget}, but this run targets ${target}; nothing was written. Make a plan against ${target} and apply that.`);
    this.name = 'PlanTargetError';
  }
}

function preview(keys: readonly ScopeKey[], max = 10): string {
  return firstItems(keys, max, (hidden) => `, and ${hidden} more`);
}
