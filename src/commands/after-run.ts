/**
 * The seam after a run (design.md, "One verdict": "the command layer runs a run's after-plan and
 * after-apply steps with the verdict and the report"): one typed list of hooks, called by the
 * command layer, with the same outcome for both front ends. Notifications (issue 49) and, later, a
 * policy check over the plan JSON are hooks; the front ends never call them on their own.
 *
 * A hook sees the outcome as data (the plan, the verdict, the report when apply wrote, the exit
 * code). It cannot change them: a hook that throws is told on the log (a warning) and the run's
 * verdict and exit code stay what they were.
 */
import type { ApplyReport } from '../apply/types.js';
import { ExitCode, type ExitCodeValue } from '../output/exit-codes.js';
import { log } from '../output/log.js';
import type { Plan } from '../plan/types.js';
import type { RunContext } from '../run/settings.js';
import type { Verdict } from './verdict.js';

/** What `plan` (and `merge-plans`) decided: the plan, what apply of it would refuse, and the exit code (2 while changes are pending). */
export interface PlanOutcome {
  command: 'plan' | 'merge-plans';
  plan: Plan;
  /** Its refusals are the plan's cautions ("apply would refuse this plan"). */
  verdict: Verdict;
  exitCode: ExitCodeValue;
  /** The run's context (never print it: it holds credentials); absent for merge-plans, which reads no context. */
  context?: RunContext;
}

/** What `apply` (every form) decided and did: the plan applied, its verdict, the report when it wrote, the exit code. */
export interface ApplyOutcome {
  command: 'apply';
  plan: Plan;
  /** Refused when it has refusals (then nothing was written and `report` is null). */
  verdict: Verdict;
  /** What was written, failed or skipped; null when refused or stopped before the writes. */
  report: ApplyReport | null;
  exitCode: ExitCodeValue;
  /** True for a saved plan (`--plan FILE`, input `plan-file`). */
  saved: boolean;
  context: RunContext;
}

/** Steps run after a run, with its outcome. Either may be left out. */
export interface AfterRunHook {
  /** A name for the log when it fails. */
  name: string;
  afterPlan?: (outcome: PlanOutcome) => void | Promise<void>;
  afterApply?: (outcome: ApplyOutcome) => void | Promise<void>;
}

const hooks: AfterRunHook[] = [];

/**
 * Adds a hook for every later run of this process (a front end, or a test, adds it before the run).
 * @returns a function that removes it again
 */
export function addAfterRunHook(hook: AfterRunHook): () => void {
  hooks.push(hook);
  return () => {
    const index = hooks.indexOf(hook);
    if (index >= 0) hooks.splice(index, 1);
  };
}

/** Runs every hook's `afterPlan` in order; called by the command layer only. */
export async function runAfterPlan(outcome: PlanOutcome): Promise<void> {
  for (const hook of [...hooks]) if (hook.afterPlan) await guarded(hook, () => hook.afterPlan?.(outcome));
}

/** Runs every hook's `afterApply` in order; called by the command layer only. */
export async function runAfterApply(outcome: ApplyOutcome): Promise<void> {
  for (const hook of [...hooks]) if (hook.afterApply) await guarded(hook, () => hook.afterApply?.(outcome));
}

async function guarded(hook: AfterRunHook, step: () => void | Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    log().warn(`the after-run step ${hook.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** An apply's exit code from its report: 1 when a scope failed or was skipped (interrupted), else 0. */
export function reportExitCode(report: ApplyReport): ExitCodeValue {
  return report.failed.length > 0 || report.skipped.length > 0 ? ExitCode.error : ExitCode.ok;
}
