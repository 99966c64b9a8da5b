/**
 * The apply's record in GitHub's deployments (input `deployment-environment`): which outcome,
 * which plan, whose run; see src/action/deployments.ts for the calls. Also writes where the
 * record went (or why it could not be written) to the job summary.
 */
import * as core from './runner.js';
import { GitHubApiError } from './github-api.js';
import { mergedPullNumber, recordApply, type ApplyRecord } from './deployments.js';
import type { ActionInputs, WorkflowContext } from './inputs.js';
import type { PlanSummary } from '../plan/types.js';

/** How the apply ended, as the audit log tells it. */
export interface AppliedOutcome {
  result: ApplyRecord['result'];
  detail: string;
  planSha256?: string;
  counts?: PlanSummary;
}

/**
 * Records one apply when `deployment-environment` is set (apply only).
 * @param env the runner's environment: GITHUB_SHA (the deployment's ref), GITHUB_ACTOR
 * @returns the deployment's id, or undefined when none was made
 */
export async function auditApply(inputs: ActionInputs, context: WorkflowContext, outcome: AppliedOutcome, env: NodeJS.ProcessEnv): Promise<number | undefined> {
  const environment = inputs.deploymentEnvironment;
  if (inputs.command !== 'apply' || environment === undefined) return undefined;
  const commit = env.GITHUB_SHA;
  if (!inputs.githubToken || !context.owner || !context.repo || !commit) {
    core.warning('input deployment-environment: no github-token, GITHUB_REPOSITORY or GITHUB_SHA, so this apply was not recorded as a deployment');
    return undefined;
  }
  const target = { apiUrl: context.apiUrl, token: inputs.githubToken, owner: context.owner, repo: context.repo };
  const pullNumber = context.pullNumber ?? (await mergedPullNumber(target, commit));
  const record: ApplyRecord = { environment, commit, actor: env.GITHUB_ACTOR || undefined, pullNumber, runUrl: context.runUrl, ...outcome };
  try {
    const id = await recordApply(target, record);
    core.info(`apply recorded as deployment ${id} to the environment ${environment}`);
    return id;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const permission = error instanceof GitHubApiError && (error.status === 403 || error.status === 404) ? ' (the job needs `permissions: deployments: write`)' : '';
    core.warning(`could not record this apply as a deployment to ${environment}: ${reason}${permission}`, { title: 'autojoin-sync: no deployment record' });
    return undefined;
  }
}
