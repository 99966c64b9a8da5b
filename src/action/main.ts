/**
 * The GitHub Action's entry (src/action/index.ts only calls run()): masks the secrets, opens the
 * step's run scope (its secrets, its wording that names inputs, its logger), reads the inputs and
 * the workflow's context, resolves the run's settings once (action-settings.ts; a saved plan
 * rebuilds them), then runs one step: validate, plan (or a shard's part), apply, merge-plans or
 * adopt (steps.ts, shard-steps.ts, adopt-step.ts call the same command layer as the CLI,
 * src/commands). The outcome becomes step outputs, the audit record (audit.ts) and the step's
 * result; a failure becomes the job summary's refusal, the outputs and core.setFailed, never an exit.
 */
import * as core from './runner.js';
import { ExitCode, RunError, toRunError, type ExitCodeValue } from '../output/exit-codes.js';
import { errorText } from '../output/error-text.js';
import { withRunScope } from '../output/run-scope.js';
import { runScopeOf } from '../run/context.js';
import { configuredSecrets } from '../run/secrets.js';
import { cutText, secretForms } from '../redact.js';
import { escapeControls } from '../escape.js';
import { parseInputs, readWorkflowContext, type ActionInputs, type WorkflowContext } from './inputs.js';
import { actionSettings, savedPlanOf } from './action-settings.js';
import { applyStep } from './apply-step.js';
import { annotate, planStep, validateStep, writeJobSummary, type PlanOutputs, type StepOutcome } from './steps.js';
import { adoptStep } from './adopt-step.js';
import { mergePlansStep, refuseShardWithoutPlan, shardPlanStep } from './shard-steps.js';
import type { RunSettings } from '../run/settings.js';
import { createLogger, logLevel } from '../output/log.js';
import { actionWording } from './action-wording.js';
import { setAllOutputs } from './outputs.js';
import { refusalMarkdown, refusalOf, refusalSummary, wasReported } from './refusal.js';
import { auditApply } from './audit.js';
import { writeSarifFile } from './findings.js';
import type { Diagnostic } from '../policy/types.js';
import type { Plan } from '../plan/types.js';

/**
 * Runs the action: one step of `validate`, `plan` or `apply`. Never exits the process; a
 * failure is reported with core.setFailed, which sets the exit code the runner reads.
 */
export async function run(): Promise<void> {
  // Masked before anything else can print it, in the runner's log and in every output of ours.
  const secrets = [core.getInput('api-key'), core.getInput('github-token'), ...configuredSecrets(process.env).map((secret) => secret.value)];
  for (const secret of secrets) maskSecret(secret);
  // The step is a run of its own (src/output/run-scope.ts): its secrets for every sink, its
  // wording (every message that names a setting names its input, not the CLI's flag: src/hint.ts),
  // and its logger (AUTOJOIN_LOG=debug: one log line per HTTP request, as --verbose does in the CLI).
  const logger = createLogger({ level: logLevel({}, process.env), write: (line) => core.info(line) });
  await withRunScope({ secrets, wording: actionWording, logger }, runInScope);
}

/** The step inside its run: once the context is resolved, nested in a run with the context's values. */
async function runInScope(): Promise<void> {
  let started: Started | undefined;
  try {
    const inputs = parseInputs((name) => core.getInput(name));
    const context = readWorkflowContext(process.env);
    const project = { diagnostics: [] as Diagnostic[], base: context.workspace };
    started = { inputs, context, project };
    // apply with plan-file: the saved plan is read once; the run's context is rebuilt from it and it is what is applied.
    const saved = await savedPlanOf(inputs, context);
    const report = (diagnostics: readonly Diagnostic[], base: string): void => {
      annotate(diagnostics, { base }, context);
      Object.assign(project, { diagnostics: [...diagnostics], base });
    };
    const settings = await actionSettings(inputs, context, report, saved);
    const outcome = await withRunScope(runScopeOf(settings), () => runStep({ inputs, context, settings, saved }, project.diagnostics));
    // A step that stopped once its plan was made: the error, reported with the plan's outputs.
    if (outcome.error !== undefined) {
      await fail(outcome.error, planOutputsOf(outcome), started);
      return;
    }
    const result = outcome.exitCode === ExitCode.ok ? 'success' : 'failed';
    const deploymentId = await auditApply(inputs, context, { result, detail: outcome.failure ?? outcome.summary, ...outcome }, process.env);
    conclude(outcome, inputs, deploymentId);
  } catch (error) {
    await fail(error, { hasChanges: false }, started);
  }
}

/**
 * A step that fails after its plan was made (a safety limit, a stale plan) still reports the plan;
 * a refusal is written to the job summary (limit, count, the input that overrides it); every
 * output is set, and an apply is recorded as refused or failed.
 */
/** What run() knows once the inputs are read: the project file's findings too (validate's SARIF holds them). */
interface Started {
  inputs: ActionInputs;
  context: WorkflowContext;
  project: { diagnostics: Diagnostic[]; base: string };
}

async function fail(error: unknown, planned: PlanOutputs, started: Started | undefined): Promise<void> {
  const failure = asRunError(error);
  const refusal = refusalOf(error);
  if (refusal && !wasReported(error)) await writeJobSummary(refusalMarkdown(refusal, failure.exitCode)).catch(() => undefined);
  const summary = refusal ? refusalSummary(refusal) : oneLine(errorText(failure));
  const outcome = { result: refusal ? ('refused' as const) : ('failed' as const), detail: summary, ...planned };
  const deploymentId = started ? await auditApply(started.inputs, started.context, outcome, process.env) : undefined;
  // An invalid project file stops validate before its step: its findings still go to code scanning.
  // Any other failure writes none: an empty log uploaded would close every open alert.
  const sarifFile = started?.inputs.command === 'validate' && started.project.diagnostics.length > 0 ? await writeSarifFile(started.project.diagnostics, started.project, started.context).catch(() => undefined) : undefined;
  setAllOutputs({ ...planned, exitCode: failure.exitCode, summary, deploymentId, sarifFile });
  core.setFailed(errorText(failure));
}

/** The plan's outputs of a step's outcome (what a failed step still sets). */
function planOutputsOf(outcome: StepOutcome): PlanOutputs {
  const { hasChanges, planJson, planSha256, driftCount, counts, notifyFailed } = outcome;
  return { hasChanges, ...(planJson === undefined ? {} : { planJson }), ...(planSha256 === undefined ? {} : { planSha256 }), ...(driftCount === undefined ? {} : { driftCount }), ...(counts === undefined ? {} : { counts }), ...(notifyFailed === undefined ? {} : { notifyFailed }) };
}

function oneLine(text: string): string {
  // Redacted whole, then cut (a key at the cut shows no part of it).
  return cutText(text.split('\n')[0] ?? '', 1000);
}

function runStep(run: { inputs: ActionInputs; context: WorkflowContext; settings: RunSettings; saved: Plan | undefined }, projectFindings: readonly Diagnostic[]): Promise<StepOutcome> {
  const { inputs, context, settings } = run;
  switch (inputs.command) {
    case 'validate':
      return validateStep(inputs, context, settings, projectFindings);
    case 'plan':
      return inputs.shard === undefined ? planStep(inputs, context, settings) : shardPlanStep(inputs, context, settings);
    case 'apply':
      refuseShardWithoutPlan(inputs);
      return applyStep(inputs, context, settings, run.saved);
    case 'merge-plans':
      return mergePlansStep(inputs, context, settings);
    case 'adopt':
      return adoptStep(inputs, context, settings);
  }
}

/** Sets the outputs and maps the exit code onto the step's result. */
function conclude(outcome: StepOutcome, inputs: ActionInputs, deploymentId: number | undefined): void {
  setAllOutputs({ ...outcome, deploymentId });
  core.info(outcome.summary);
  if (isFailure(outcome.exitCode, inputs)) core.setFailed(escapeControls(outcome.failure ?? outcome.summary));
}

/** Pending changes fail the step only when asked to (drift detection). */
function isFailure(code: ExitCodeValue, inputs: ActionInputs): boolean {
  if (code === ExitCode.changesPending) return inputs.detailedExitcode;
  return code !== ExitCode.ok;
}

function asRunError(error: unknown): RunError {
  const mapped = toRunError(error);
  if (mapped instanceof RunError) return mapped;
  return new RunError(mapped instanceof Error ? mapped.message : String(mapped), ExitCode.error);
}

/** Registers every form the redactor looks for (upper case, base64, …) with the runner's log masking. */
function maskSecret(value: string): void {
  if (value.trim() === '') return;
  for (const form of secretForms(value.trim())) core.setSecret(form);
}
