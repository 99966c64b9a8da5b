/**
 * A plan that shows a secret. The service may echo a key back in a scope's name or metadata,
 * and a plan shows both; every output replaces the secret with `***` (src/output/sinks.ts). A
 * saved plan so rewritten is no longer a faithful record of the live state it was made from,
 * and, were the echo in what apply sends (a pruned scope's old name), it would write `***` to
 * the service. So the plan is marked before it is rendered: `redacted` names the scopes whose
 * entries held a secret, and `apply --plan` refuses a marked plan (a fresh apply, which plans
 * from the files and never reads the redacted text, is unaffected).
 */
import { PlanFileError } from './saved.js';
import type { Plan } from './types.js';

/**
 * @param holdsSecret whether a text holds a secret of the run, in any form the redactor knows
 * @returns the plan, marked with `redacted` (scope keys, possibly none) when any part of it held one
 */
export function markRedacted(plan: Plan, holdsSecret: (text: string) => boolean): Plan {
  const { redacted: _previous, ...rest } = plan;
  // Entry by entry, never the whole plan as one text: that was a transient copy of every scope's
  // fingerprint (about 110 bytes a scope) at the end of each plan, its peak memory.
  const keys = new Set<string>();
  for (const change of plan.changes) if (holdsSecret(JSON.stringify(change))) keys.add(change.key);
  for (const scope of plan.scopes) if (holdsSecret(JSON.stringify(scope))) keys.add(scope.key);
  // Stryker disable next-line ArrayDeclaration: the entries left out were each looked at above; any placeholder in their place holds no secret
  if (keys.size === 0 && !holdsSecret(JSON.stringify({ ...rest, changes: [], scopes: [] }))) return rest;
  return { ...rest, redacted: [...keys].sort() };
}

/** @throws PlanFileError when a saved plan is marked `redacted`: it is not applied (see the module comment). */
export function refuseRedactedPlan(plan: Plan): void {
  if (plan.redacted === undefined) return;
  const where = plan.redacted.length > 0 ? ` (in ${plan.redacted.slice(0, 5).join(', ')}${plan.redacted.length > 5 ? ', …' : ''})` : '';
  throw new PlanFileError(
    `the saved plan shows *** where the service showed a secret of this run${where}: it is not a faithful record of the live state, ` +
      'so it is not applied; nothing was written. Take the secret out of the service (apply from the policy files sets the ' +
      "scope's name and metadata to the file's), then make a new plan",
  );
}
