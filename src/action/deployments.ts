/**
 * The audit log of applies (input `deployment-environment`): each apply creates one GitHub
 * deployment to that environment and one deployment status, so the repository's Environments page
 * lists who changed access and when, with the plan's sha256, its counts, the pull request and the
 * merged commit in the deployment's payload. The deployment is made after the apply (one status:
 * `success`, or `failure` saying refused or failed), with `auto_merge: false` (an apply never
 * merges branches) and `required_contexts: []` (the apply has already run, so no commit status may
 * hold its record back). A record that cannot be written (no `deployments: write`) is a warning:
 * the apply has happened either way.
 */
import { repoPath, request, GitHubApiError, type RepoTarget } from './github-api.js';
import type { PlanSummary } from '../plan/types.js';
import { cutText, redactText } from '../redact.js';

/** GitHub cuts a deployment status's description at 140 characters. */
export const DESCRIPTION_MAX = 139;

/** What one apply tells the audit log. */
export interface ApplyRecord {
  environment: string;
  /** The commit applied (GITHUB_SHA): the deployment's ref. */
  commit: string;
  /** Who triggered the run (GITHUB_ACTOR). */
  actor?: string;
  /** The pull request merged by that commit, when one is found. */
  pullNumber?: number;
  planSha256?: string;
  counts?: PlanSummary;
  /** `success`, or `failure` with `refused` (a check stopped it, nothing written) or `failed`. */
  result: 'success' | 'refused' | 'failed';
  /** One line: the step's summary, or why it was refused or failed. */
  detail: string;
  runUrl?: string;
}

/**
 * Creates the deployment and its one status.
 * @returns the deployment's id
 * @throws GitHubApiError when GitHub refuses either call
 */
export async function recordApply(target: RepoTarget, record: ApplyRecord): Promise<number> {
  const base = `${repoPath(target)}/deployments`;
  const created = (await request(target, 'POST', base, deploymentBody(record))) as { id?: unknown; message?: unknown };
  // 202 answers a merge of the default branch into the ref, which auto_merge: false rules out.
  if (typeof created.id !== 'number') throw new GitHubApiError('POST', base, 202, typeof created.message === 'string' ? created.message : 'no deployment was created');
  await request(target, 'POST', `${base}/${created.id}/statuses`, statusBody(record));
  return created.id;
}

/** The body of POST /repos/{owner}/{repo}/deployments. */
export function deploymentBody(record: ApplyRecord): Record<string, unknown> {
  return {
    ref: record.commit,
    task: 'deploy:autojoin-sync',
    environment: record.environment,
    auto_merge: false,
    required_contexts: [],
    description: cut(`autojoin-sync apply${record.pullNumber === undefined ? '' : ` of #${record.pullNumber}`}`),
    payload: {
      tool: 'autojoin-sync',
      planSha256: record.planSha256 ?? null,
      counts: record.counts ?? null,
      actor: record.actor ?? null,
      pullRequest: record.pullNumber ?? null,
      commit: record.commit,
      result: record.result,
    },
  };
}

/** The body of POST /repos/{owner}/{repo}/deployments/{id}/statuses. */
export function statusBody(record: ApplyRecord): Record<string, unknown> {
  const state = record.result === 'success' ? 'success' : 'failure';
  const prefix = record.result === 'success' ? 'applied' : record.result;
  return {
    state,
    description: cut(`${prefix}: ${record.detail}`),
    ...(record.runUrl ? { log_url: record.runUrl } : {}),
    environment: record.environment,
  };
}

/** At most {@link DESCRIPTION_MAX} characters, on one line: redacted whole, then cut (cutText). */
function cut(text: string): string {
  return cutText(redactText(text).replace(/\s+/gu, ' ').trim(), DESCRIPTION_MAX);
}

/**
 * The pull request a pushed commit merged (GET /repos/{owner}/{repo}/commits/{sha}/pulls): the
 * merged one whose merge commit it is, else the first listed; undefined when none or on any error
 * (the record is still made, without it).
 */
export async function mergedPullNumber(target: RepoTarget, commit: string): Promise<number | undefined> {
  try {
    const pulls = (await request(target, 'GET', `${repoPath(target)}/commits/${encodeURIComponent(commit)}/pulls`)) as {
      number?: unknown;
      merge_commit_sha?: unknown;
      merged_at?: unknown;
    }[];
    const merged = pulls.find((pull) => pull.merge_commit_sha === commit && pull.merged_at) ?? pulls[0];
    return typeof merged?.number === 'number' ? merged.number : undefined;
  } catch {
    return undefined;
  }
}
