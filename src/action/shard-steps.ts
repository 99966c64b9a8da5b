/**
 * Sharded runs in the action (a CI matrix as one reviewed run): a plan job with input `shard`
 * writes its part and posts nothing to the pull request; `command: merge-plans` merges the parts
 * (input `plan-files`), decides the safety limits on the whole, posts the one comment and summary
 * and sets `plan-sha256`; an apply job with `shard`, `plan-file` and `plan-sha256` applies its
 * shard of the merged plan.
 */
import { readdir } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { planSummaryLine } from '../render/describe.js';
import { mergePlansCommand } from '../commands/merge-plans-command.js';
import { concludePlan } from '../commands/plan-command.js';
import { RunError } from '../output/exit-codes.js';
import type { RunSettings } from '../run/settings.js';
import { escapeMarkdown } from '../render/index.js';
import type { ActionInputs, WorkflowContext } from './inputs.js';
import { inWorkspace, loadFailed, planFor, reportPlan, takeOwnershipOf, withClient, writeJobSummary, afterPlanMade, type StepOutcome } from './steps.js';
import { writePlanFile } from './plan-file.js';
import { planExitCode, planFacts } from './findings.js';

/** A shard's plan job: its part is a file for the merge job; the pull request hears only from the merge. */
export async function shardPlanStep(inputs: ActionInputs, context: WorkflowContext, settings: RunSettings): Promise<StepOutcome> {
  const shard = inputs.shard ?? '';
  const made = await withClient(settings, (client) => planFor(inputs, context, settings, client));
  if (!made.plan) return loadFailed(inputs, context, inWorkspace(made.load, settings, context), false, made.headline);
  const { plan } = made;
  const { file: planJson } = await writePlanFile(plan, context, `part-${shard.replace('/', '-of-')}`);
  const pending = plan.changes.length > 0;
  // A part's sha256 pins nothing: only the merged plan is ever applied, so the output stays empty.
  return afterPlanMade({ hasChanges: pending, planJson }, async () => {
    const summary = `shard ${shard}: ${planSummaryLine(plan)}`;
    // Concluded as the CLI's plan --shard is (its after-plan steps run once); the summary is the report.
    const show = async (): Promise<void> => {
      await writeJobSummary(`### autojoin-sync plan, shard ${escapeMarkdown(shard)}\n\n${escapeMarkdown(summary)}. The merge-plans job posts the merged plan.\n`);
    };
    const concluded = await concludePlan(plan, settings, takeOwnershipOf(inputs), { show });
    const { driftCount } = planFacts(plan);
    return { exitCode: concluded.exitCode, summary, hasChanges: pending, planJson, driftCount };
  });
}

/** `command: merge-plans`: the parts of input plan-files become one plan, shown and pinned as any plan. */
export async function mergePlansStep(inputs: ActionInputs, context: WorkflowContext, settings: RunSettings): Promise<StepOutcome> {
  const files = await expandPlanFiles(inputs.planFiles ?? [], context.workspace);
  const { plan, verdict } = await mergePlansCommand({ parts: files.map((file) => ({ file, name: basename(file) })) });
  const { file: planJson, sha256: planSha256 } = await writePlanFile(plan, context, 'merged');
  const pending = plan.changes.length > 0;
  return afterPlanMade({ hasChanges: pending, planJson, planSha256 }, async () => {
    await reportPlan(inputs, context, settings, plan, undefined, verdict);
    const { driftCount } = planFacts(plan);
    return { exitCode: planExitCode(plan), summary: planSummaryLine(plan), hasChanges: pending, planJson, planSha256, driftCount };
  });
}

/** Refuses input shard on apply without plan-file: the limits would be decided per shard. */
export function refuseShardWithoutPlan(inputs: ActionInputs): void {
  if (inputs.command === 'apply' && inputs.shard !== undefined && inputs.planFile === undefined) {
    throw new RunError('input shard on apply applies one shard of a merged plan: give plan-file and plan-sha256 (the merge-plans job\'s outputs); without them the safety limits would be decided per shard');
  }
}

/** Each line of plan-files is a path, or a glob whose `*` and `?` stand in the file name only. */
async function expandPlanFiles(patterns: readonly string[], workspace: string): Promise<string[]> {
  if (patterns.length === 0) throw new RunError('command merge-plans needs input plan-files: the shard plans, e.g. `parts/*.json`');
  const files = new Set<string>();
  for (const pattern of patterns) {
    const path = resolve(workspace, pattern);
    const name = basename(path);
    if (!/[*?]/u.test(name)) {
      files.add(path);
      continue;
    }
    const matching = (await readdir(dirname(path)).catch(() => [] as string[])).filter((entry) => globRegExp(name).test(entry));
    if (matching.length === 0) throw new RunError(`input plan-files: ${pattern} matches no file`);
    for (const entry of matching) files.add(resolve(dirname(path), entry));
  }
  return [...files].sort();
}

function globRegExp(name: string): RegExp {
  const body = name.replace(/[.+^${}()|[\]\\]/gu, '\\$&').replace(/\*/gu, '[^/]*').replace(/\?/gu, '[^/]');
  return new RegExp(`^${body}$`, 'u');
}
