/**
 * The plan command over the run context, as both front ends run it (src/cli/plan-or-fail.ts for
 * plan, apply and adopt; src/action/steps.ts): the run's settings, its DNS check before the read
 * and the echoed-secret marking of the plan come from here, once; the front end adds only what is
 * its own (the scopes it narrows to as its flags or inputs say, notices, diagnostics, progress).
 */
import { ExitCode, type ExitCodeValue } from '../output/exit-codes.js';
import { findViolations } from '../plan/index.js';
import type { UnsafePlanError } from '../plan/safety.js';
import type { Plan, SafetyLimits } from '../plan/types.js';
import type { LoadResult } from '../policy/types.js';
import { makePlan, nothingPlannedMessage, type MakePlanOptions } from '../reconcile/make-plan.js';
import { dnsBeforeRead } from '../run/dns.js';
import { markEchoedSecrets } from '../output/redacted-plan.js';
import type { RunContext } from '../run/settings.js';
import type { ServiceClient } from '../service/client.js';
import type { Rule } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import { verdictOf, type Verdict } from './verdict.js';
import { runAfterPlan, type AfterRun, type PlanOutcome } from './after-run.js';
import { refuseUnsendableRequired, type NotifyRequest } from './notify-command.js';
import { manyProjects, planProjects, projectsVerdict } from './run-projects.js';

/** What narrows or shapes a plan, as the front end's flags or inputs gave it. */
export type PlanRequest = Pick<
  MakePlanOptions,
  'pruneFrom' | 'allowNoPolicies' | 'target' | 'shard' | 'targets' | 'replace' | 'changedSince' | 'takeOwnership' | 'onlyExpired'
>;

export interface PlanCommand extends PlanRequest, Pick<MakePlanOptions, 'onProgress' | 'onNotice' | 'onDiagnostics'> {
  context: RunContext;
  client: ServiceClient;
  /** The notifications the run will send (`plan --notify`, the action's input `notify`): a required target that cannot be sent stops it before the read. */
  notify?: Pick<NotifyRequest, 'enabled' | 'env'>;
}

/**
 * Makes the plan of the context's policy files against the service: loads and checks them, the
 * DNS check the context asks for, reads live state, plans, and marks the scopes whose live state
 * echoed a secret.
 * @returns the plan (null when a policy file has an error, then `headline` says why nothing was planned) and what loading found
 */
export async function planCommand(command: PlanCommand): Promise<{ plan: Plan; load: LoadResult } | { plan: null; load: LoadResult; headline: string }> {
  const { context, notify, ...request } = command;
  // A run of several projects: each planned under its own context, then joined (src/commands/run-projects.ts).
  if (manyProjects(context)) {
    const joined = await planProjects(context.perProject, (one) => planCommand({ ...command, context: one }), command.onDiagnostics);
    return joined.plan ? { plan: joined.plan, load: joined.load } : { plan: null, load: joined.load, headline: nothingPlannedMessage(joined.load) };
  }
  if (notify) refuseUnsendableRequired({ context, ...notify });
  const made = await makePlan({ ...request, secrets: context.secrets, settings: context, ...dnsBeforeRead(context.dns, context.base) });
  return made.plan ? { ...made, plan: markEchoedSecrets(made.plan) } : { plan: null, load: made.load, headline: nothingPlannedMessage(made.load) };
}

/** A plan's exit code: 2 while changes or kept drift are pending, else 0 (`--detailed-exitcode`, the action's plan step). */
export function planExitCode(plan: Pick<Plan, 'changes' | 'drift'>): ExitCodeValue {
  return plan.changes.length > 0 || plan.drift.length > 0 ? ExitCode.changesPending : ExitCode.ok;
}

/** What apply would refuse in `plan`: its safety limits checked under the limits it was made under (its context), else `limits`. */
export function applyWouldRefuse(plan: Pick<Plan, 'changes' | 'scopes' | 'context'>, limits: SafetyLimits): UnsafePlanError[] {
  return findViolations(plan.changes, plan.context?.limits ?? limits, plan.scopes);
}

/**
 * What `apply` of `plan` would refuse, against the live state the plan read: the verdict
 * (src/commands/verdict.ts) under the limits and rules the plan was made under (its context), else
 * the run's. `plan`, `show` and `merge-plans` show its refusals as cautions, in apply's words.
 * @param takeOwnership the scopes the request takes over (a plan made with --take-ownership)
 */
export function planVerdict(plan: Plan, context: Pick<RunContext, 'limits' | 'today'> & { project: Pick<RunContext['project'], 'rules'> }, takeOwnership?: ReadonlySet<ScopeKey>): Verdict {
  if (plan.projects !== undefined) return projectsVerdict(plan, (part) => planVerdict(part, context, takeOwnership));
  const rules = (plan.context?.rules as Rule[] | undefined) ?? context.project.rules;
  const taken = takeOwnership ?? new Set(plan.context?.takeOwnership ?? []);
  return verdictOf(plan, { limits: plan.context?.limits ?? context.limits, rules, today: plan.context?.today ?? context.today, takeOwnership: taken });
}

/** What a plan request adds to its conclusion: the exit code it asks for, its notifications, and the view that shows the plan. */
export interface PlanConclusion {
  /** false: exit 0 with changes pending (the CLI without --detailed-exitcode); else 2 while pending. */
  detailedExitcode?: boolean;
  notify?: NotifyRequest;
  /** Shows the plan with its verdict (the report), before the after-plan steps. */
  show?: (outcome: PlanOutcome) => void | Promise<void>;
  /** A merged plan: its verdict, decided over the parts by mergePlansCommand, which ran its after-plan steps once already. */
  merged?: Verdict;
}

/**
 * Concludes a plan as both front ends do: its verdict (what apply would refuse: the cautions) and
 * exit code, shown by the view, then the after-plan steps (src/commands/after-run.ts: the
 * notifications) with that outcome.
 * @returns the outcome, with the exit code after the steps (a required target not delivered turns 0 into 1)
 */
export async function concludePlan(plan: Plan, context: RunContext, takeOwnership?: ReadonlySet<ScopeKey>, request: PlanConclusion = {}): Promise<PlanOutcome & AfterRun> {
  const exitCode = request.detailedExitcode === false ? ExitCode.ok : planExitCode(plan);
  if (request.merged) {
    const merged: PlanOutcome = { command: 'merge-plans', plan, verdict: request.merged, exitCode };
    await request.show?.(merged);
    return { ...merged, notifications: [] };
  }
  const outcome: PlanOutcome = { command: 'plan', plan, verdict: planVerdict(plan, context, takeOwnership), exitCode, context, ...(request.notify ? { notify: request.notify } : {}) };
  await request.show?.(outcome);
  return { ...outcome, ...(await runAfterPlan(outcome)) };
}
