/**
 * The action's one call to src/run/settings.ts: its inputs in the flags' place. In a pull
 * request the repository's own project file may not choose the base URL: the pull request could
 * point it at a server of its author's, which would then receive the API key; only the input
 * or the environment (set by the workflow, not by the pull request) may. Nor may it choose the
 * DNS check's resolvers (`dns.servers`): the plan trusts their answers, so a pull request could
 * name its own resolver and make an unregistered domain look registered; the input `dns-servers`
 * or AUTOJOIN_DNS_SERVERS may.
 */
import { resolveSettings, type RunSettings, type SettingSources } from '../run/settings.js';
import { savedProjects } from '../run/saved-projects.js';
import type { Diagnostic } from '../policy/types.js';
import type { ActionInputs, WorkflowContext } from './inputs.js';
import { resolve } from 'node:path';
import { readSavedPlanCommand } from '../commands/plan-files.js';
import { RunError } from '../output/exit-codes.js';
import type { Plan } from '../plan/types.js';

/**
 * @param report annotates the project file's diagnostics
 * @param saved apply with plan-file: the saved plan (savedPlanOf), whose context the run's is rebuilt from
 * @throws RunError when the project file has an error or a setting is invalid
 */
export async function actionSettings(
  inputs: ActionInputs,
  context: Pick<WorkflowContext, 'workspace' | 'eventName' | 'pullNumber'>,
  report: (diagnostics: readonly Diagnostic[], base: string) => void,
  saved?: Plan,
): Promise<RunSettings> {
  const { read, listing, concurrency, baseUrl, apiKey, maxRemovals, maxRemovalPercent, allowEmpty, prune } = inputs;
  const plan = saved ?? (await savedPlanOf(inputs, context));
  return resolveSettings({
    ...(plan === undefined ? {} : { saved: savedContext(plan, inputs.planFile ?? '') }),
    cwd: context.workspace,
    paths: inputs.paths,
    flags: { read, listing, concurrency, baseUrl, apiKey, maxRemovals, maxRemovalPercent, allowEmpty, prune, dnsCheck: inputs.dns },
    env: process.env,
    trustProjectBaseUrl: !isPullRequest(context),
    report,
    seeWhere: 'see the annotations',
    command: inputs.command,
    // validate reads each policy file under its own project file, plan and apply each project under its own (src/commands/run-projects.ts); adopt takes one project at a time.
    manyProjects: inputs.command !== 'adopt',
  });
}

/** apply with plan-file: the saved plan, read once (pinned by plan-sha256 when given, and checked); else undefined. */
export async function savedPlanOf(inputs: ActionInputs, context: Pick<WorkflowContext, 'workspace'>): Promise<Plan | undefined> {
  if (inputs.command !== 'apply' || inputs.planFile === undefined) return undefined;
  return readSavedPlanCommand(resolve(context.workspace, inputs.planFile), inputs.planSha256);
}

/** `pull_request`, `pull_request_target` and the review events, or any event about a pull request. */
export function isPullRequest(context: Pick<WorkflowContext, 'eventName' | 'pullNumber'>): boolean {
  return context.eventName.startsWith('pull_request') || context.pullNumber !== undefined;
}

/** The saved plan's run context, and the plan-file input that names it in messages. */
function savedContext(plan: Plan, file: string): NonNullable<SettingSources['saved']> {
  if (!plan.context) throw new RunError(`${file} records no run context; make the plan again with this version`);
  return { context: plan.context, file, ...savedProjects(plan) };
}
