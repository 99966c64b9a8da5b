/**
 * The whole `apply` request, as both front ends run it (src/cli/commands/apply.ts,
 * src/action/steps.ts): a `required` notification target that cannot be sent stops it first; then
 * the plan (the front end's: made with planCommand, or a saved plan's part), the verdict and the
 * writes (applyDecided), the report shown by the front end's view, and last the after-apply steps
 * (src/commands/after-run.ts: the notifications) with the outcome, once, whatever it is.
 * It returns the outcome as data, a refusal or a failure included: the front end renders it.
 */
import type { ApplyReport } from '../apply/types.js';
import type { Plan } from '../plan/types.js';
import type { LoadResult } from '../policy/types.js';
import { RunError } from '../output/exit-codes.js';
import { applyDecided, type ApplyCommand } from './apply-command.js';
import type { Verdict } from './verdict.js';
import { reportExitCode, runAfterApply, type AfterRun, type ApplyOutcome } from './after-run.js';
import { exitCodeOf, type NotifyRequest } from './notify-command.js';
import { refuseUnsendableInAnyProject } from './notify-projects.js';

/** What the request's plan is: the plan written (one shard of `whole`, or all of it), or the load when a policy file has an error. */
export type Planned = { plan: Plan; whole: Plan } | { plan: null; load: LoadResult; headline: string };

export interface ApplyRequest extends Omit<ApplyCommand, 'plan' | 'wholePlan'> {
  /** Makes or reads the plan (the front end prints or annotates what loading found). */
  planned: () => Promise<Planned>;
  /** What the flags or inputs say of notifications. */
  notify: NotifyRequest;
  /** The view: shows the plan before the checks (a new plan), the report once written, the stop before the steps after it. */
  view?: {
    onPlan?: (plan: Plan) => void | Promise<void>;
    onReport?: (report: ApplyReport, plan: Plan) => void | Promise<void>;
    onStopped?: (error: unknown, plan: Plan | undefined) => void | Promise<void>;
  };
}

/** The outcome of an apply request, after its steps: the exit code is the run's (a required target not delivered turns 0 into 1). */
export interface ApplyRun extends ApplyOutcome, AfterRun {
  /** What loading found, when a policy file has an error (then there is no plan), and the line that says so. */
  load?: LoadResult;
  headline?: string;
}

/**
 * Runs the apply request: never throws for what ends a run (a refusal, a failed read, invalid
 * policy files, no confirmation): `error` holds it as it was thrown, `exitCode` its exit code.
 * @throws RunError when a required notification target cannot be sent (nothing was read or written)
 */
export async function applyRequestCommand(request: ApplyRequest): Promise<ApplyRun> {
  const { context, notify } = request;
  refuseUnsendableInAnyProject({ context, enabled: notify.enabled, ...(notify.env ? { env: notify.env } : {}) });
  let planned: Planned | undefined;
  let outcome: ApplyOutcome;
  try {
    planned = await request.planned();
    outcome = await applyPlanned(request, planned);
  } catch (error) {
    outcome = await stopped(request, error, planned?.plan ?? undefined);
  }
  const after = await runAfterApply(outcome);
  return { ...outcome, ...after, ...(planned && !planned.plan ? { load: planned.load, headline: planned.headline } : {}) };
}

/** The verdict and the writes of a plan; invalid policy files, a refusal and a failure are outcomes too. */
async function applyPlanned(request: ApplyRequest, planned: Planned): Promise<ApplyOutcome> {
  if (!planned.plan) return stopped(request, new RunError(planned.headline), undefined);
  const { plan, whole } = planned;
  await request.view?.onPlan?.(plan);
  const decided = await applyDecided({ ...request, plan, wholePlan: whole });
  if (decided.error !== undefined || !decided.report) return stopped(request, decided.error, plan, decided.verdict);
  await request.view?.onReport?.(decided.report, plan);
  return { command: 'apply', plan, verdict: decided.verdict, report: decided.report, exitCode: reportExitCode(decided.report), saved: request.saved, context: request.context, notify: request.notify };
}

/** The outcome of a request that stopped (as thrown: the front end maps it to its words), shown by the view first. */
async function stopped(request: ApplyRequest, error: unknown, plan: Plan | undefined, verdict?: Verdict): Promise<ApplyOutcome> {
  await request.view?.onStopped?.(error, plan);
  const exitCode = exitCodeOf(error);
  return { command: 'apply', ...(plan ? { plan } : {}), verdict: verdict ?? { refusals: [], exitCode }, report: null, error, exitCode, saved: request.saved, context: request.context, notify: request.notify };
}
