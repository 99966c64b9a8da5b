/**
 * The merge-plans command over the shard plans of one run, as both front ends run it
 * (src/cli/commands/merge-plans.ts, src/action/shard-steps.ts): each part read and checked as
 * `apply --plan` reads a plan, the parts merged into one plan (refusing a missing, duplicated or
 * overlapping shard and parts of different runs), and the safety limits the parts were planned
 * under decided on the whole. The front end saves, renders and posts it.
 */
import { mergePlanParts, type PlanPart } from '../plan/index.js';
import { planExitCode, planVerdict } from './plan-command.js';
import { runAfterPlan } from './after-run.js';
import type { Verdict } from './verdict.js';
import type { Plan } from '../plan/types.js';
import { readSavedPlan } from '../reconcile/saved-plan.js';

export interface MergePlansCommand {
  /** Each part: the file read, and the name the merge names it by in its refusals. */
  parts: readonly { file: string; name: string }[];
}

export interface MergePlansOutcome {
  plan: Plan;
  /** What apply would refuse in the merged plan, under the limits and rules its parts recorded (src/commands/verdict.ts). */
  verdict: Verdict;
}

/** @throws the refusals of readSavedPlan and of mergePlanParts; UnknownOwnerError as plan throws it, decided over the parts' union */
export async function mergePlansCommand(command: MergePlansCommand): Promise<MergePlansOutcome> {
  const parts: PlanPart[] = [];
  for (const part of command.parts) parts.push({ file: part.name, plan: await readSavedPlan(part.file) });
  const plan = mergePlanParts(parts);
  // The limits the parts were planned under (one context, so one set), decided here on the whole.
  const verdict = planVerdict(plan, { limits: {}, today: plan.createdAt.slice(0, 10), project: { rules: [] } });
  // A scope whose owner cannot be read while other parts show theirs stops the merged plan, as it stops the unsharded plan.
  const unknown = verdict.refusals.find((refusal) => refusal.kind === 'unknown-owner');
  if (unknown) throw unknown.error;
  await runAfterPlan({ command: 'merge-plans', plan, verdict, exitCode: planExitCode(plan) });
  return { plan, verdict };
}
