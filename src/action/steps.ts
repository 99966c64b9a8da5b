/**
 * The action's validate, plan and apply steps (shard-steps.ts and adopt-step.ts hold the others).
 * Each calls the command layer the CLI calls (src/commands: validateCommand, planCommand,
 * applyCommand) inside one service client (withClient); what is left here is where the outcome
 * goes: annotations, the job summary, the sticky PR comment (sticky-comment.ts), the plan file
 * (plan-file.ts), SARIF (findings.ts), and the outputs returned to main.ts.
 */
import { resolve } from 'node:path';
import * as core from './runner.js';
import { planCommentFooter, publishComment } from './sticky-comment.js';
import { pullRequestFindings } from './pr-findings.js';
import { pullRequestFiles } from '../commands/pull-request-files.js';
import { withConnection } from '../commands/connection.js';
import { log } from '../output/log.js';
import { ExitCode, type ExitCodeValue } from '../output/exit-codes.js';
import { relativePosix } from '../relative-path.js';
import { summarizeDiagnostics } from '../render/diagnostics.js';
import { renamedDiagnostics } from '../render/shown-here.js';
import type { Diagnostic, LoadResult } from '../policy/types.js';
import type { RunSettings } from '../run/settings.js';
import type { Plan, PlanSummary } from '../plan/types.js';
import { planCautions, refusalOf } from './refusal.js';
import { planFacts, writeSarifFile } from './findings.js';
import { renderMarkdown } from '../render/index.js';
import { escapeControls, fenceFor } from '../escape.js';
import { cutText } from '../redact.js';
import { COMMENT_MAX_CHARS } from '../render/markdown.js';
import { planSummaryLine } from '../render/describe.js';
import type { ServiceClient } from '../service/client.js';
import type { RequestEvent } from '../service/trace.js';
import { GitHubApiError } from './comment.js';
import { writePlanFile } from './plan-file.js';
import type { ActionInputs, WorkflowContext } from './inputs.js';
import {
  SUMMARY_MAX_CHARS,
  diagnosticsMarkdown,
  planTitle,
  unsafeMarkdown,
} from './summary-markdown.js';
import { takeOwnershipRequest } from '../commands/request-lists.js';
import type { AfterRun, NotifyRequest } from '../commands/after-run.js';
import type { Verdict } from '../commands/verdict.js';
import { concludePlan, planCommand } from '../commands/plan-command.js';
import { validateCommand } from '../commands/validate-command.js';
import type { ScopeKey } from '../scope.js';

/** The outputs a plan sets: `has-changes`, `plan-json`, `plan-sha256`. */
export interface PlanOutputs {
  hasChanges: boolean;
  /** Path of the plan JSON file, when a plan was made. */
  planJson?: string;
  /** sha256 of that file, for `plan-sha256` (pins it for a later apply). */
  planSha256?: string;
  /** Scopes changed outside this repository (drift, conflicts): `drift-count`; the plan's counts. */
  driftCount?: number;
  counts?: PlanSummary;
  /** `notify-failed`: whether a notification target was not delivered; undefined when none was sent. */
  notifyFailed?: boolean;
}

/** What a step hands back for the outputs and the step's result. */
export interface StepOutcome extends PlanOutputs {
  /** validate: the SARIF file written for code scanning, the `sarif-file` output. */
  sarifFile?: string;
  /** adopt: the pull request opened or updated, the `pull-request-url` output. */
  pullRequestUrl?: string;
  exitCode: ExitCodeValue;
  /** One line, also the `summary` output. */
  summary: string;
  /** Message for a failed step (exit codes 1, 3, 4); `summary` otherwise. */
  failure?: string;
  /** What stopped a step once its plan was made (a refusal, a stale plan): main.ts reports it, with the plan's outputs above. */
  error?: unknown;
}

/**
 * Runs what follows a plan's making: a failure is returned with the plan's outputs, so that a step
 * failing later still sets them (main.ts reports the error).
 */
export async function afterPlanMade(planned: PlanOutputs, rest: () => Promise<StepOutcome>): Promise<StepOutcome> {
  try {
    return await rest();
  } catch (error) {
    return { ...planned, exitCode: ExitCode.error, summary: '', error };
  }
}

/** `validate`: offline schema and domain checks; annotations at file:line:col. */
export async function validateStep(inputs: ActionInputs, context: WorkflowContext, settings: RunSettings, projectFindings: readonly Diagnostic[] = []): Promise<StepOutcome> {
  const outcome = await validateCommand({ context: settings, allowNoPolicies: inputs.allowNoPolicies });
  const { load, findings } = outcome;
  annotate(findings, settings, context);
  const policies = load.policyCount === 1 ? '1 policy' : `${load.policyCount} policies`;
  const summary = `${policies}; ${summarizeDiagnostics(findings, load.files.length)}`;
  const failed = outcome.exitCode !== ExitCode.ok;
  await writeJobSummary(`### ${planTitle(inputs.paths, 'validate')}\n\n${failed ? ':x:' : ':white_check_mark:'} ${summary}\n`);
  const sarifFile = await writeSarifFile([...projectFindings, ...findings], settings, context);
  return { exitCode: outcome.exitCode, summary, hasChanges: false, sarifFile };
}

/** `plan`: the plan in the job summary and, in a pull request, in one sticky comment. */
export async function planStep(inputs: ActionInputs, context: WorkflowContext, settings: RunSettings): Promise<StepOutcome> {
  const work = withClient(settings, async (client) => {
    const notify = notifyRequest(inputs, context, settings);
    const made = await planFor(inputs, context, settings, client, notify);
    if (!made.plan) return loadFailed(inputs, context, inWorkspace(made.load, settings, context), true, made.headline);
    const { plan } = made;
    const { file: planJson, sha256: planSha256 } = await writePlanFile(plan, context);
    const pending = plan.changes.length > 0;
    const planned = { hasChanges: pending, planJson, planSha256, ...planFacts(plan) };
    return afterPlanMade(planned, async () => {
      // The report first (the job summary, the comment), then the after-plan steps: the drift job's messages (input notify: true on a schedule).
      const concluded = await reportPlan(inputs, context, settings, plan, notify);
      const { failure } = concluded;
      return { ...planned, exitCode: concluded.exitCode, summary: planSummaryLine(plan), ...notifyFailedOf(concluded), ...(failure ? { failure } : {}) };
    });
  });
  const commented = async (error: unknown): Promise<void> => {
    if (!(error instanceof GitHubApiError)) await commentFailure(inputs, context, error);
  };
  const outcome = await work.catch(async (error: unknown) => {
    await commented(error);
    throw error;
  });
  if (outcome.error !== undefined) await commented(outcome.error);
  return outcome;
}

/** The plan in the job summary and the sticky comment, with the caution when apply would refuse it; then the after-plan steps. */
/** @param merged a merged plan's verdict (mergePlansCommand's, decided over its parts; its after-plan steps already ran) */
export async function reportPlan(inputs: ActionInputs, context: WorkflowContext, settings: RunSettings, plan: Plan, notify?: NotifyRequest, merged?: Verdict): Promise<AfterRun> {
  const show = async ({ verdict }: { verdict: Verdict }): Promise<void> => {
    const cautions = planCautions(verdict.refusals, context.pullNumber !== undefined);
    for (const caution of cautions) core.warning(`apply would refuse this plan: ${caution}`, { title: 'autojoin-sync: unsafe plan' });
    const prefix = unsafeMarkdown(cautions, verdict.exitCode);
    const title = planTitle(inputs.paths);
    const changedFiles = await changedProjectFiles(plan, settings, context);
    await writeJobSummary(prefix + renderMarkdown(plan, { title, changedFiles, maxChars: SUMMARY_MAX_CHARS - prefix.length }));
    const footer = planCommentFooter(inputs, context);
    await publishComment(inputs, context, prefix + renderMarkdown(plan, { title, footer, changedFiles, maxChars: COMMENT_MAX_CHARS - prefix.length }));
  };
  return concludePlan(plan, settings, takeOwnershipOf(inputs), { ...(notify ? { notify } : {}), ...(merged ? { merged } : {}), show });
}

/** A plan of several projects in a pull request: the files it changed, from the run's base (as the plan names its projects' roots), so their projects come first. */
async function changedProjectFiles(plan: Plan, where: Pick<RunSettings, 'base'>, context: WorkflowContext): Promise<ReadonlySet<string>> {
  if (plan.projects === undefined) return new Set();
  const changed = await pullRequestFiles(context);
  return new Set([...changed].map((file) => relativePosix(where.base, resolve(context.workspace, file))));
}

/** A plan that could not be made replaces the sticky comment's older plan, which is no longer true. */
async function commentFailure(inputs: ActionInputs, context: WorkflowContext, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const failure = failureSection(planTitle(inputs.paths), message);
  // The comment's footer points to the job summary: it says the same (a refusal's own summary is main.ts's).
  if (refusalOf(error) === null) await writeJobSummary(failure).catch(() => undefined);
  const body = `${failure}\n${planCommentFooter(inputs, context)}\n`;
  await publishComment(inputs, context, body).catch((commentError: unknown) => {
    core.warning(`could not update the plan comment: ${commentError instanceof Error ? commentError.message : String(commentError)}`);
  });
}

/** The comment of a plan that could not be made: the error's message, redacted whole, then cut to 4,000 characters. */
export function failureCommentBody(title: string, message: string, footer: string): string {
  return `${failureSection(title, message)}\n${footer}\n`;
}

/** The failure's own section (comment and job summary alike): the message redacted whole, then cut. */
function failureSection(title: string, message: string): string {
  const text = cutText(message, 4000);
  const fence = fenceFor(text);
  return `### ${title}\n\n:x: **No plan could be made:**\n\n${fence}text\n${text}\n${fence}\n`;
}

/** Makes the plan of the inputs' paths, annotating the diagnostics of the policy files. */
export async function planFor(inputs: ActionInputs, context: WorkflowContext, settings: RunSettings, client: ServiceClient, notify?: NotifyRequest): ReturnType<typeof planCommand> {
  const progress = log().progress('read'); // one log line every 10 s on a large estate
  return planCommand({
    ...(notify ? { notify } : {}),
    context: settings,
    client,
    pruneFrom: inputs.pruneFrom,
    allowNoPolicies: inputs.allowNoPolicies,
    targets: { scope: inputs.scope, excludeScope: inputs.excludeScope },
    shard: inputs.shard,
    onProgress: progress.update,
    takeOwnership: takeOwnershipOf(inputs),
    onlyExpired: inputs.command === 'apply' && inputs.onlyExpired,
    onNotice: (message) => core.notice(message),
  }).finally(progress.done).then((made) => {
    annotate(made.load.diagnostics, settings, context);
    return made;
  });
}

/** The scopes of input take-ownership; a value that is not TYPE/ID names the input (src/action/action-wording.ts). */
export function takeOwnershipOf(inputs: ActionInputs): Set<ScopeKey> {
  return takeOwnershipRequest(inputs.takeOwnership);
}

/** Invalid policy files: no plan; say so in the job summary (and the PR comment, replacing a stale plan). */
export async function loadFailed(inputs: ActionInputs, context: WorkflowContext, load: LoadResult, comment: boolean, headline: string): Promise<StepOutcome> {
  const title = planTitle(inputs.paths);
  // The pull request's own files first, then three warnings of a kind (pr-findings.ts).
  const { shown, counted } = pullRequestFindings(load.diagnostics, await pullRequestFiles(context));
  await writeJobSummary(diagnosticsMarkdown(title, headline, shown, SUMMARY_MAX_CHARS, counted));
  if (comment) {
    const footer = planCommentFooter(inputs, context);
    await publishComment(inputs, context, `${diagnosticsMarkdown(title, headline, shown, COMMENT_MAX_CHARS - footer.length - 4, counted)}\n${footer}\n`);
  }
  return { exitCode: ExitCode.error, summary: headline, hasChanges: false };
}

/** Connects through the command layer as the CLI does (the settings hold the base-url / api-key inputs; no embedded emulator) and always closes. */
export async function withClient<T>(settings: RunSettings, work: (client: ServiceClient) => Promise<T>): Promise<T> {
  const view = { notice: (message: string) => core.info(message), clientNotice: (message: string) => core.notice(message), onRequest: (event: RequestEvent) => log().request(event) };
  return withConnection({ settings, baseUrlHint: 'the action input base-url' }, view, (client) => work(client));
}

/**
 * One annotation per diagnostic, at its file, line and column: files are named relative to the
 * run's base (the paths' repository), annotations relative to the workspace.
 */
export function annotate(diagnostics: readonly Diagnostic[], where: Pick<RunSettings, 'base'>, context: Pick<WorkflowContext, 'workspace'>): void {
  for (const d of renamedDiagnostics(diagnostics, (file) => workspaceFile(file, where, context))) {
    const properties = { file: d.file, startLine: d.line, startColumn: d.column, title: `autojoin-sync: ${d.code}` };
    if (d.severity === 'error') core.error(escapeControls(d.message), properties);
    else core.warning(escapeControls(d.message), properties);
  }
}

/** A file named relative to the run's base, named relative to the workspace, as GitHub shows files. */
function workspaceFile(file: string, where: Pick<RunSettings, 'base'>, context: Pick<WorkflowContext, 'workspace'>): string {
  return relativePosix(context.workspace, resolve(where.base, file));
}

/** The load with its diagnostics' files named relative to the workspace, for the job summary and the comment. */
export function inWorkspace(load: LoadResult, where: Pick<RunSettings, 'base'>, context: Pick<WorkflowContext, 'workspace'>): LoadResult {
  return { ...load, diagnostics: renamedDiagnostics(load.diagnostics, (file) => workspaceFile(file, where, context)) };
}

export async function writeJobSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  await core.summary.addRaw(markdown, true).write();
}

/** The action's notifications: input `notify` (default true for apply, false for plan); a pull request's run sends nothing. */
export function notifyRequest(inputs: ActionInputs, context: WorkflowContext, settings: RunSettings): NotifyRequest {
  const enabled = context.pullNumber === undefined && (inputs.notify ?? inputs.command === 'apply');
  const shard = inputs.command === 'apply' && inputs.shard !== undefined ? { shard: inputs.shard } : {};
  return { service: settings.baseUrl ?? 'embedded', enabled, onWarning: (text) => core.warning(text, { title: 'autojoin-sync: notification' }), ...shard };
}

export function notifyFailedOf(told: Pick<AfterRun, 'notifications'>): Pick<PlanOutputs, 'notifyFailed'> {
  return told.notifications.length === 0 ? {} : { notifyFailed: told.notifications.some((one) => !one.delivered) };
}
