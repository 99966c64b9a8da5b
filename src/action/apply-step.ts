/**
 * The action's apply step: the command layer's apply request (src/commands/apply-request.ts) with
 * the action's view: the plan (a new one, written under RUNNER_TEMP, or the pinned saved plan of
 * input plan-file), the job summary of the report or of the refusal, and the step's outputs.
 */
import { resolve } from 'node:path';
import * as core from './runner.js';
import { log } from '../output/log.js';
import { ExitCode } from '../output/exit-codes.js';
import { firstItems, plural } from '../text.js';
import type { LoadResult } from '../policy/types.js';
import type { RunSettings } from '../run/settings.js';
import type { Plan } from '../plan/types.js';
import { refusalPrefix } from './refusal.js';
import { planFacts } from './findings.js';
import { applySummaryLine, renderApplyReportMarkdown, renderMarkdown } from '../render/index.js';
import { planSummaryLine } from '../render/describe.js';
import { readSavedPlanCommand, savedPlanShard } from '../commands/plan-files.js';
import type { ServiceClient } from '../service/client.js';
import { writePlanFile } from './plan-file.js';
import type { ActionInputs, WorkflowContext } from './inputs.js';
import { SUMMARY_MAX_CHARS, planTitle } from './summary-markdown.js';
import { applyRequestCommand } from '../commands/apply-request.js';
import { inWorkspace, loadFailed, notifyFailedOf, notifyRequest, planFor, takeOwnershipOf, withClient, writeJobSummary, type StepOutcome } from './steps.js';

/** `apply`: plan (or a pinned saved plan), safety limits, the POSTs; the report and the plan in the job summary. */
export async function applyStep(inputs: ActionInputs, context: WorkflowContext, settings: RunSettings, saved?: Plan): Promise<StepOutcome> {
  return withClient(settings, async (client) => {
    const title = planTitle(inputs.paths);
    let made: PlanToApply | undefined;
    const progress = log().progress('applied');
    // The command runs the whole request: the plan, the checks, the writes, the report (the job summary, here), then the notifications.
    const run = await applyRequestCommand({
      client,
      planned: async () => {
        made = await planToApply(inputs, context, settings, client, saved);
        return made.plan ? { plan: made.plan, whole: made.whole } : made;
      },
      context: settings,
      saved: inputs.planFile !== undefined,
      takeOwnership: takeOwnershipOf(inputs),
      allowBehind: inputs.allowBehind,
      notify: notifyRequest(inputs, context, settings),
      view: {
        onStopped: async (error, plan) => {
          progress.done();
          if (plan) await writeJobSummary(refusalPrefix(error) + renderMarkdown(plan, { title, maxChars: SUMMARY_MAX_CHARS }));
        },
        onReport: async (report, plan) => {
          progress.done();
          const reportMarkdown = renderApplyReportMarkdown(report, { title: planTitle(inputs.paths, 'apply'), maxChars: SUMMARY_MAX_CHARS / 2 });
          await writeJobSummary(`${reportMarkdown}\n${renderMarkdown(plan, { title, maxChars: SUMMARY_MAX_CHARS / 2 })}`);
        },
      },
      onProgress: progress.update,
      onNotice: (message: string) => core.notice(message),
    }).finally(progress.done);
    if (run.load) return loadFailed(inputs, context, inWorkspace(run.load, settings, context), false, run.headline ?? '');
    // A step that stops once its plan was made still sets the plan's outputs.
    if (run.error !== undefined && made?.plan) return { hasChanges: made.plan.changes.length > 0, planJson: made.planJson, planSha256: made.planSha256, ...planFacts(made.plan), ...notifyFailedOf(run), exitCode: run.exitCode, summary: '', error: run.error };
    if (run.error !== undefined) throw run.error as Error;
    const { plan, report } = run;
    if (!plan || !report) throw new Error('apply ended without its plan and report');
    const summary = `${planSummaryLine(plan)} ${applySummaryLine(report)}`;
    const failure = report.failed.length > 0 ? failedScopesMessage(report.failed) : run.failure;
    return { exitCode: failure ? ExitCode.error : ExitCode.ok, summary, hasChanges: plan.changes.length > 0, planJson: made?.plan ? made.planJson : undefined, planSha256: made?.plan ? made.planSha256 : undefined, failure, ...planFacts(plan), ...notifyFailedOf(run) };
  });
}

/** `plan` is what this job writes; `whole` the plan the safety limits are decided on (a merged plan, when `plan` is one shard of it). */
type PlanToApply = { plan: Plan; whole: Plan; planJson: string; planSha256: string } | { plan: null; load: LoadResult; headline: string };

/** The saved plan of `plan-file` (read once, pinned and checked, before the settings), or a new plan written under RUNNER_TEMP. */
async function planToApply(inputs: ActionInputs, context: WorkflowContext, settings: RunSettings, client: ServiceClient, saved?: Plan): Promise<PlanToApply> {
  if (inputs.planFile !== undefined) {
    const file = resolve(context.workspace, inputs.planFile);
    // readSavedPlan refuses the file unless its sha256 is the pinned one, so that is its digest.
    const whole = saved ?? (await readSavedPlanCommand(file, inputs.planSha256));
    return { plan: savedPlanShard(whole, inputs.planFile, inputs.shard), whole, planJson: file, planSha256: (inputs.planSha256 ?? '').toLowerCase() };
  }
  const made = await planFor(inputs, context, settings, client);
  if (!made.plan) return made;
  const { plan } = made;
  const written = await writePlanFile(plan, context);
  return { plan, whole: plan, planJson: written.file, planSha256: written.sha256 };
}

function failedScopesMessage(failed: readonly { key: string; reason: string }[]): string {
  const shown = firstItems(failed.map((f) => `${f.key}: ${f.reason}`), 5, (hidden) => `; and ${hidden} more`, '; ');
  return `${plural(failed.length, 'scope')} failed to apply (${shown}); run apply again to finish`;
}
