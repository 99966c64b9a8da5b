/**
 * The apply command over the run context, as both front ends run it (src/cli/commands/apply.ts,
 * src/action/steps.ts): everything applyPlan takes from the run (limits, read mode, owner, HEAD
 * for the markers, the history behind checks run against) comes from the one context; the front
 * end adds only what is its own (the plan, the client, --take-ownership / --allow-behind as it was
 * given, notices, the confirmation, progress, Ctrl-C).
 */
import type { ApplyReport } from '../apply/types.js';
import { applyPlan } from '../reconcile/apply-plan.js';
import { parseAllowBehind } from '../history/behind.js';
import type { ScopeGlob } from '../policy/globs.js';
import { refusalsOfError, verdictOf, type Verdict } from './verdict.js';
import { ExitCode } from '../output/exit-codes.js';
import { applyEachProject, manyProjects, projectsApplyVerdict } from './run-projects-apply.js';
import type { ApplyCommand } from './apply-types.js';

export type { ApplyCommand } from './apply-types.js';

/**
 * Applies `plan` in `context`: its verdict (ownership and behind refusals, safety limits, write
 * checks), for a saved plan its checks against the live state and this history, the confirmation,
 * then the writes. The whole request, with its after-apply steps, is {@link applyRequestCommand}'s
 * (src/commands/apply-request.ts).
 * @throws Error naming an --allow-behind value that is not TYPE/ID; the refusal of the verdict; the errors of applyPlan
 */
export async function applyCommand(command: ApplyCommand): Promise<ApplyReport> {
  const decided = await applyDecided(command);
  if (decided.error !== undefined || !decided.report) throw decided.error;
  return decided.report;
}

/** What {@link applyDecided} decided and did, as data. */
export interface ApplyDecided {
  /** The verdict before the writes; or the refusals only the live state at apply told (a stale plan, a recount, behind again). */
  verdict: Verdict;
  /** What was written; null when refused or stopped. */
  report: ApplyReport | null;
  /** What stopped the apply (the verdict's first refusal, or a failure); absent when it wrote. */
  error?: unknown;
}

/**
 * {@link applyCommand} with its outcome as data: a refusal or a failure of the writes is returned, not thrown.
 * @throws Error naming an --allow-behind value that is not TYPE/ID
 */
export async function applyDecided(command: ApplyCommand): Promise<ApplyDecided> {
  const allowBehind = parseAllowBehind(command.allowBehind);
  // Every refusal the plan itself tells, decided once (the same verdict plan shows as its cautions).
  const verdict = applyVerdict(command, allowBehind);
  const first = verdict.refusals[0];
  if (first) return { verdict, report: null, error: first.error };
  try {
    return { verdict, report: await writeAfterChecks(command, allowBehind) };
  } catch (error) {
    // What only the live state at apply tells (a stale plan, a recount, behind again) is a refusal of the verdict too.
    const refusals = refusalsOfError(error);
    const told = refusals && refusals.length > 0 ? { refusals, exitCode: refusals[0]?.exitCode ?? ExitCode.error } : verdict;
    return { verdict: told, report: null, error };
  }
}

/** applyPlan over the run context: for a saved plan, its checks against the live state and this history; the confirmation; the writes. */
export function writeAfterChecks(command: ApplyCommand, allowBehind: readonly ScopeGlob[]): Promise<ApplyReport> {
  const { context } = command;
  // A run of several projects: each project's part under its own context (src/commands/run-projects.ts).
  if (command.plan.projects !== undefined && manyProjects(context)) return applyEachProject(command, allowBehind, writeAfterChecks);
  return applyPlan({
    client: command.client,
    plan: command.plan,
    ...(command.wholePlan === undefined ? {} : { wholePlan: command.wholePlan }),
    settings: context,
    // Every list written passes the rules and domain checks; a saved plan's entries that expired since are stale.
    rules: context.project.rules,
    policyPlace: context,
    applied: context.today,
    ...(command.target === undefined ? {} : { target: command.target }),
    verifyFingerprints: command.saved,
    takeOwnership: command.takeOwnership,
    allowBehind,
    history: { base: context.base, ...(context.head === undefined ? {} : { head: context.head }), ...(context.runOwners === undefined ? {} : { runOwners: new Set(context.runOwners) }) },
    owner: context.owner,
    // The applying checkout's HEAD, resolved once with the context: the markers name it.
    ...(context.head === undefined ? {} : { commit: context.head }),
    ...(command.onNotice ? { onNotice: command.onNotice } : {}),
    ...(command.confirm ? { confirm: command.confirm } : {}),
    ...(command.onProgress ? { onProgress: command.onProgress } : {}),
    ...(command.signal ? { signal: command.signal } : {}),
  });
}

/** The verdict of applying the command's plan in its context: what {@link applyCommand} refuses before anything is read again. */
export function applyVerdict(command: Pick<ApplyCommand, 'context' | 'plan' | 'wholePlan' | 'saved' | 'takeOwnership'>, allowBehind: readonly ScopeGlob[]): Verdict {
  const { context } = command;
  if (command.plan.projects !== undefined && manyProjects(context)) return projectsApplyVerdict(command, allowBehind, applyVerdict);
  const over = { limits: context.limits, rules: context.project.rules, today: context.today, takeOwnership: command.takeOwnership, allowBehind, saved: command.saved };
  return verdictOf(command.plan, over, command.wholePlan ?? command.plan);
}
