/**
 * A saved plan is evaluated on the day it was made. When an entry of one of its scopes expired
 * between that day and today, the plan would keep a grant the files now revoke: it is stale
 * (exit 4; docs/run-context.md, "Saved plans carry their context"), and a new plan removes the entry. The policy files of the
 * checkout that applies are read for their `expires` dates only.
 */
import { loadPolicies } from '../policy/index.js';
import type { Plan } from '../plan/index.js';
import type { RunSettings } from '../run/settings.js';
import { ExpiredSincePlanError } from '../plan/refusals.js';

/** Where the policy files of the applying checkout are. */
export type PolicyPlace = Pick<RunSettings, 'paths' | 'base' | 'roots' | 'project'>;

/**
 * @param day today (the run context's: AUTOJOIN_NOW in tests)
 * @throws ExpiredSincePlanError naming the first entry that expired since the plan's date
 */
export async function refuseExpiredSincePlan(plan: Pick<Plan, 'createdAt' | 'scopes'>, place: PolicyPlace, day: string): Promise<void> {
  const planDay = plan.createdAt.slice(0, 10);
  if (!(day > planDay)) return;
  const covered = new Set(plan.scopes.map((scope) => scope.key));
  const { policies } = await loadPolicies(place.paths, { cwd: place.base, roots: place.roots, project: place.project, today: day, rules: false });
  const expired = policies
    .filter((policy) => covered.has(policy.key))
    .flatMap((policy) => (policy.expired ?? []).filter((entry) => entry.expires >= planDay).map((entry) => ({ key: policy.key, ...entry })));
  if (expired.length > 0) throw new ExpiredSincePlanError(expired, planDay, day);
}
