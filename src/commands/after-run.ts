/**
 * The seam after a run (design.md, "One verdict": "the command layer runs a run's after-plan and
 * after-apply steps with the verdict and the report"): one typed list of steps, called by the
 * command layer, with the same outcome for both front ends. The first step is the run's
 * notifications (design.md, "Notifications"; src/commands/notify-command.ts); a front end, or a
 * test, may add more ({@link addAfterRunHook}). The front ends never call a step on their own.
 *
 * A step sees the outcome as data (the plan, the verdict, the report when apply wrote, the error
 * that stopped it, the exit code). It cannot change them, with one exception the contract makes:
 * a step may report a failure (a `required` notification target not delivered), which turns exit
 * 0 into 1; 1, 2, 3 and 4 stand. A step that throws is told on the log (a warning) and the run's
 * verdict and exit code stay what they were.
 */
import type { ApplyReport } from '../apply/types.js';
import { ExitCode, type ExitCodeValue } from '../output/exit-codes.js';
import { log } from '../output/log.js';
import type { Plan } from '../plan/types.js';
import type { NotificationEntry } from '../render/notifications-json.js';
import type { RunContext } from '../run/settings.js';
import type { Verdict } from './verdict.js';
import type { NotifyRequest } from './notify-command.js';
import { notifyRun } from './notify-projects.js';

export type { NotifyRequest } from './notify-command.js';

/** What `plan` (and `merge-plans`) decided: the plan, what apply of it would refuse, and the exit code (2 while changes are pending). */
export interface PlanOutcome {
  command: 'plan' | 'merge-plans';
  plan: Plan;
  /** Its refusals are the plan's cautions ("apply would refuse this plan"). */
  verdict: Verdict;
  exitCode: ExitCodeValue;
  /** The run's context (never print it: it holds credentials); absent for merge-plans, which reads no context. */
  context?: RunContext;
  /** The notification step's request (`plan --notify`, the action's input `notify`); absent: nothing is sent. */
  notify?: NotifyRequest;
}

/** What `apply` (every form) decided and did: the plan applied, its verdict, the report when it wrote, the exit code. */
export interface ApplyOutcome {
  command: 'apply';
  /** The plan applied; absent when the run stopped before it had one (invalid policy files, the read failed). */
  plan?: Plan;
  /** Refused when it has refusals (then nothing was written and `report` is null). */
  verdict: Verdict;
  /** What was written, failed or skipped; null when refused or stopped before the writes. */
  report: ApplyReport | null;
  /** What stopped the run (a refusal, a failed read, no confirmation); absent when it ran to its report. */
  error?: unknown;
  exitCode: ExitCodeValue;
  /** True for a saved plan (`--plan FILE`, input `plan-file`). */
  saved: boolean;
  context: RunContext;
  /** The notification step's request (apply without `--no-notify`, the action's input `notify`). */
  notify?: NotifyRequest;
}

/** What a step reports back: the notification targets told (for `--format json`), a failure that turns exit 0 into 1. */
export interface AfterRunResult {
  notifications?: readonly NotificationEntry[];
  /** One line: why the run fails although its outcome was exit 0 (a required notification not delivered). */
  failure?: string;
}

/** Every step's results together: the run's exit code after them. */
export interface AfterRun {
  /** The outcome's exit code, or 1 when it was 0 and a step failed. */
  exitCode: ExitCodeValue;
  notifications: NotificationEntry[];
  /** The steps' failures, joined; absent when none failed. */
  failure?: string;
}

/** Steps run after a run, with its outcome. Either may be left out. */
export interface AfterRunHook {
  /** A name for the log when it fails. */
  name: string;
  afterPlan?: (outcome: PlanOutcome) => AfterRunResult | undefined | Promise<AfterRunResult | undefined>;
  afterApply?: (outcome: ApplyOutcome) => AfterRunResult | undefined | Promise<AfterRunResult | undefined>;
}

/** The notifications of a run (design.md, "Notifications"): the first step, always there. */
const notificationStep: AfterRunHook = {
  name: 'notifications',
  afterPlan: async (outcome) => {
    if (!outcome.notify || !outcome.context || outcome.command !== 'plan') return;
    return notifyRun({ command: 'plan', plan: outcome.plan, exitCode: outcome.exitCode }, { ...outcome.notify, context: outcome.context });
  },
  afterApply: async (outcome) => {
    if (!outcome.notify) return;
    const { shard } = outcome.notify;
    const told = { command: 'apply' as const, exitCode: outcome.exitCode, ...(outcome.plan ? { plan: outcome.plan } : {}), ...(outcome.report ? { report: outcome.report } : {}), ...(outcome.error === undefined ? {} : { error: outcome.error }), ...(shard === undefined ? {} : { shard }) };
    return notifyRun(told, { ...outcome.notify, context: outcome.context });
  },
};

const hooks: AfterRunHook[] = [notificationStep];

/**
 * Adds a step for every later run of this process (a front end, or a test, adds it before the run).
 * @returns a function that removes it again
 */
export function addAfterRunHook(hook: AfterRunHook): () => void {
  hooks.push(hook);
  return () => {
    const index = hooks.indexOf(hook);
    if (index >= 0) hooks.splice(index, 1);
  };
}

/** Runs every step's `afterPlan` in order; called by the command layer only. */
export async function runAfterPlan(outcome: PlanOutcome): Promise<AfterRun> {
  const results: AfterRunResult[] = [];
  for (const hook of [...hooks]) if (hook.afterPlan) results.push(await guarded(hook, () => hook.afterPlan?.(outcome)));
  return combined(outcome.exitCode, results);
}

/** Runs every step's `afterApply` in order; called by the command layer only. */
export async function runAfterApply(outcome: ApplyOutcome): Promise<AfterRun> {
  const results: AfterRunResult[] = [];
  for (const hook of [...hooks]) if (hook.afterApply) results.push(await guarded(hook, () => hook.afterApply?.(outcome)));
  return combined(outcome.exitCode, results);
}

async function guarded(hook: AfterRunHook, step: () => AfterRunResult | undefined | Promise<AfterRunResult | undefined>): Promise<AfterRunResult> {
  try {
    return (await step()) ?? {};
  } catch (error) {
    log().warn(`the after-run step ${hook.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return {};
  }
}

function combined(exitCode: ExitCodeValue, results: readonly AfterRunResult[]): AfterRun {
  const notifications = results.flatMap((result) => result.notifications ?? []);
  const failures = results.flatMap((result) => (result.failure ? [result.failure] : []));
  const failure = failures.length > 0 ? failures.join('; ') : undefined;
  return { exitCode: exitCode === ExitCode.ok && failure ? ExitCode.error : exitCode, notifications, ...(failure ? { failure } : {}) };
}

/** An apply's exit code from its report: 1 when a scope failed or was skipped (interrupted), else 0. */
export function reportExitCode(report: ApplyReport): ExitCodeValue {
  return report.failed.length > 0 || report.skipped.length > 0 ? ExitCode.error : ExitCode.ok;
}
