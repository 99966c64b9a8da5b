/**
 * The plan command over the run context, as both front ends run it (src/cli/plan-or-fail.ts for
 * plan, apply and adopt; src/action/steps.ts): the run's settings, its DNS check before the read
 * and the echoed-secret marking of the plan come from here, once; the front end adds only what is
 * its own (the scopes it narrows to as its flags or inputs say, notices, diagnostics, progress).
 */
import type { Plan } from '../plan/types.js';
import type { LoadResult } from '../policy/types.js';
import { makePlan, type MakePlanOptions } from '../reconcile/make-plan.js';
import { dnsBeforeRead } from '../run/dns.js';
import { markEchoedSecrets } from '../output/redacted-plan.js';
import type { RunContext } from '../run/settings.js';
import type { ServiceClient } from '../service/client.js';

/** What narrows or shapes a plan, as the front end's flags or inputs gave it. */
export type PlanRequest = Pick<
  MakePlanOptions,
  'pruneFrom' | 'allowNoPolicies' | 'target' | 'shard' | 'targets' | 'replace' | 'changedSince' | 'takeOwnership' | 'onlyExpired' | 'secrets'
>;

export interface PlanCommand extends PlanRequest, Pick<MakePlanOptions, 'onProgress' | 'onNotice' | 'onDiagnostics'> {
  context: RunContext;
  client: ServiceClient;
}

/**
 * Makes the plan of the context's policy files against the service: loads and checks them, the
 * DNS check the context asks for, reads live state, plans, and marks the scopes whose live state
 * echoed a secret.
 * @returns the plan (null when a policy file has an error) and what loading found
 */
export async function planCommand(command: PlanCommand): Promise<{ plan: Plan | null; load: LoadResult }> {
  const { context, ...request } = command;
  const made = await makePlan({ ...request, settings: context, ...dnsBeforeRead(context.dns, context.base) });
  return made.plan ? { ...made, plan: markEchoedSecrets(made.plan) } : made;
}
