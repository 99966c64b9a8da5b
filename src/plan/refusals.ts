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
 * A saved plan in which an entry expired between the plan's date and today: applied, it would
 * keep a grant the files revoke (docs/run-context.md, "Saved plans carry their context"). Exit 4, as any stale plan.
 */
export class ExpiredSincePlanError extends StalePlanError {
  constructor(expired: readonly { key: ScopeKey; domain: string; expires: string }[], planDay: string, day: string) {
    super(expired.map((entry) => entry.key));
    const first = expired[0];
    const more = expired.length > 1 ? ` and ${expired.length - 1} more` : '';
    this.message =
      `the saved plan is stale: ${first ? `${first.domain} in ${first.key} expired on ${first.expires}` : 'an entry expired'}${more}, after the plan was made (${planDay}; today is ${day}); ` +
      'nothing was written. Make a new plan and apply that.';
    this.name = 'ExpiredSincePlanError';
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

/**
 * A write that would not pass as a policy file (src/plan/write-checks.ts): refused before
 * anything is written, naming the scope, the check and the way out.
 */
export class WriteCheckError extends Error {
  constructor(readonly problems: readonly { key: ScopeKey; check: string; message: string }[]) {
    const lines = problems.slice(0, 10).map((problem) => `  ${problem.key}: ${problem.message} (${problem.check})`);
    if (problems.length > 10) lines.push(`  and ${problems.length - 10} more`);
    const scopes = [...new Set(problems.map((problem) => problem.key))];
    super(
      `refused: what a run writes must pass the same checks as a policy file, and ${scopes.length === 1 ? 'this write' : 'these writes'} would not:\n${lines.join('\n')}\n` +
        `Set \`drift: revert\` on ${scopes.length === 1 ? 'that scope' : 'those scopes'} (its policy file's \`drift:\`) to write the files' state instead; nothing was written.`,
    );
    this.name = 'WriteCheckError';
  }
}

/** Why `apply --only-expired` cannot write a scope as the contract says (only-expired.ts). */
export type OnlyExpiredReason = 'component' | 'remark' | 'marker-removed';

const ONLY_EXPIRED_WHY: Record<OnlyExpiredReason, string> = {
  component: 'its componentId can be read neither live nor from the state last applied',
  remark: 'it carries no ownership marker, and its policy at HEAD without the expired entries is not what this write would leave, so it cannot be marked with HEAD',
  'marker-removed': 'its ownership marker was removed outside this repository (e.g. a widget admin\'s save)',
};

/**
 * `apply --only-expired` refuses a scope it cannot narrow to its removals by expiry: writing it
 * would change more than the expiry, or mark it wrongly. Nothing was written; a full apply (reviewed) writes it.
 */
export class OnlyExpiredError extends Error {
  constructor(readonly scopes: readonly { key: ScopeKey; reason: OnlyExpiredReason }[]) {
    const lines = scopes.slice(0, 10).map((scope) => `${scope.key}: ${ONLY_EXPIRED_WHY[scope.reason]}`);
    if (scopes.length > 10) lines.push(`and ${scopes.length - 10} more`);
    super(`apply --only-expired cannot remove the expired entries of ${preview(scopes.map((scope) => scope.key))} alone: ${lines.join('; ')}; nothing was written, and the expired grants stay live until a full apply (plan, review, apply) writes ${scopes.length === 1 ? 'that scope' : 'those scopes'}`);
    this.name = 'OnlyExpiredError';
  }
}
