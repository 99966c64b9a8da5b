/**
 * The GitHub Action: a thin layer that maps action inputs onto the modules the CLI uses
 * (src/policy, src/reconcile, src/render) and their results onto the runner's channels:
 * annotations, the job summary, one sticky PR comment, step outputs and the step's result.
 */
import { basename } from 'node:path';
import * as core from './runner.js';
import { ExitCode, RunError, toRunError, type ExitCodeValue } from '../run/exit-codes.js';
import { errorText } from '../run/error-text.js';
import { setOutputSecrets } from '../run/output.js';
import { configuredSecrets } from '../run/secrets.js';
import { secretForms } from '../redact.js';
import { escapeControls } from '../render/escape.js';
import { parseInputs, readWorkflowContext, type ActionInputs, type WorkflowContext } from './inputs.js';
import { actionSettings } from './settings.js';
import { annotate, applyStep, planStep, validateStep, type OnPlan, type PlanOutputs, type StepOutcome } from './steps.js';
import { adoptStep } from './adopt-step.js';
import { mergePlansStep, refuseShardWithoutPlan, shardPlanStep } from './shard-steps.js';
import type { RunSettings } from '../run/settings.js';
import { createLogger, logLevel, setLogger } from '../run/log.js';
import { useWording } from '../hint.js';
import { actionWording } from './wording.js';

/**
 * Runs the action: one step of `validate`, `plan` or `apply`. Never exits the process; a
 * failure is reported with core.setFailed, which sets the exit code the runner reads.
 */
export async function run(): Promise<void> {
  // Masked before anything else can print it, in the runner's log and in every output of ours.
  const secrets = [core.getInput('api-key'), core.getInput('github-token'), ...configuredSecrets(process.env).map((secret) => secret.value)];
  for (const secret of secrets) maskSecret(secret);
  setOutputSecrets(secrets);
  // Every message that names a setting names its input, not the CLI's flag (src/hint.ts).
  useWording(actionWording);
  // AUTOJOIN_LOG=debug: one log line per HTTP request, as --verbose does in the CLI.
  setLogger(createLogger({ level: logLevel({}, process.env), write: (line) => core.info(line) }));
  let planned: PlanOutputs = { hasChanges: false };
  try {
    const inputs = parseInputs((name) => core.getInput(name));
    const context = readWorkflowContext(process.env);
    const settings = await actionSettings(inputs, context, (diagnostics, base) => annotate(diagnostics, { base }, context));
    const outcome = await runStep(inputs, context, settings, (outputs) => (planned = outputs));
    conclude(outcome, inputs);
  } catch (error) {
    const failure = asRunError(error);
    // A step that fails after its plan was made (a safety limit, a stale plan) still reports the plan.
    setPlanOutputs(planned);
    core.setOutput('exit-code', String(failure.exitCode));
    core.setFailed(errorText(failure));
  }
}

function runStep(inputs: ActionInputs, context: WorkflowContext, settings: RunSettings, onPlan: OnPlan): Promise<StepOutcome> {
  switch (inputs.command) {
    case 'validate':
      return validateStep(inputs, context, settings);
    case 'plan':
      return inputs.shard === undefined ? planStep(inputs, context, settings, onPlan) : shardPlanStep(inputs, context, settings, onPlan);
    case 'apply':
      refuseShardWithoutPlan(inputs);
      return applyStep(inputs, context, settings, onPlan);
    case 'merge-plans':
      return mergePlansStep(inputs, context, settings, onPlan);
    case 'adopt':
      return adoptStep(inputs, context, settings);
  }
}

/** Sets the outputs and maps the exit code onto the step's result. */
function conclude(outcome: StepOutcome, inputs: ActionInputs): void {
  setPlanOutputs(outcome);
  core.setOutput('exit-code', String(outcome.exitCode));
  core.setOutput('summary', outcome.summary);
  if (outcome.driftCount !== undefined) core.setOutput('drift-count', String(outcome.driftCount));
  if (outcome.pullRequestUrl !== undefined) core.setOutput('pull-request-url', outcome.pullRequestUrl);
  core.info(outcome.summary);
  if (isFailure(outcome.exitCode, inputs)) core.setFailed(escapeControls(outcome.failure ?? outcome.summary));
}

/** `has-changes`, `plan-json`, `plan-file` and `plan-sha256`: `false` and empty when no plan was made. */
function setPlanOutputs(outputs: PlanOutputs): void {
  core.setOutput('has-changes', String(outputs.hasChanges));
  core.setOutput('plan-json', outputs.planJson ?? '');
  // The file's name alone: what an artifact downloaded into a directory holds.
  core.setOutput('plan-file', outputs.planJson === undefined ? '' : basename(outputs.planJson));
  core.setOutput('plan-sha256', outputs.planSha256 ?? '');
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
