/**
 * The one pull request of `command: adopt`: found by its head branch among the repository's open
 * pull requests, updated in place when it exists, opened otherwise, so a drift that lasts for
 * days keeps one pull request rather than opening one a night.
 */
import { repoPath, request, type RepoTarget } from './github-api.js';

/** What the pull request should say, and between which branches. */
export interface PullRequestSpec {
  /** The branch holding the edit (in the same repository). */
  head: string;
  /** The branch to merge into (the repository's default branch). */
  base: string;
  title: string;
  body: string;
}

interface PullRequest {
  number: number;
  html_url: string;
}

/**
 * Opens the pull request from `spec.head`, or updates the open one.
 * @returns what was done, its number and its web address
 */
export async function upsertPullRequest(target: RepoTarget, spec: PullRequestSpec): Promise<{ action: 'created' | 'updated'; number: number; url: string }> {
  const pulls = `${repoPath(target)}/pulls`;
  const head = `${target.owner}:${spec.head}`;
  const open = (await request(target, 'GET', `${pulls}?state=open&head=${encodeURIComponent(head)}&per_page=100`)) as PullRequest[];
  const existing = open.find((pull) => Number.isSafeInteger(pull.number));
  if (existing) {
    const updated = (await request(target, 'PATCH', `${pulls}/${existing.number}`, { title: spec.title, body: spec.body })) as PullRequest;
    return { action: 'updated', number: existing.number, url: updated.html_url };
  }
  const created = (await request(target, 'POST', pulls, { title: spec.title, body: spec.body, head: spec.head, base: spec.base })) as PullRequest;
  return { action: 'created', number: created.number, url: created.html_url };
}
