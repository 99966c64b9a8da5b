/**
 * The one sticky plan comment of a pull request: found by its hidden marker among the comments
 * this action's identity wrote (input comment-author), created or updated in place.
 */
import * as core from './runner.js';
import { commentMarker, GitHubApiError, upsertComment } from './comment.js';
import { commentFooter } from './summary-markdown.js';
import { redactOutput } from '../output/sinks.js';
import type { ActionInputs, WorkflowContext } from './inputs.js';

/**
 * Creates or updates the sticky comment. Without a PR, a token, or with `comment: false` it
 * does nothing; a 403/404 (a fork's read-only token, a missing permission) is a warning only.
 */
export async function publishComment(inputs: ActionInputs, context: WorkflowContext, body: string): Promise<void> {
  if (!inputs.comment || context.pullNumber === undefined || !context.owner || !context.repo) return;
  if (!inputs.githubToken) { core.warning('no github-token: the plan is in the job summary only'); return; }
  const target = { apiUrl: context.apiUrl, token: inputs.githubToken, owner: context.owner, repo: context.repo, issueNumber: context.pullNumber, author: inputs.commentAuthor };
  try {
    const result = await upsertComment(target, planCommentMarker(inputs), redactOutput(body));
    core.info(`plan comment ${result.action} on pull request #${context.pullNumber}`);
  } catch (error) {
    if (error instanceof GitHubApiError && (error.status === 403 || error.status === 404)) {
      core.warning(
        `cannot comment on pull request #${context.pullNumber} (${error.message}); the plan is in the job summary. ` +
          'A pull request from a fork gets a read-only token; otherwise grant `pull-requests: write`.',
      );
      return;
    }
    throw error;
  }
}

/** The sticky comment's marker: one comment per set of paths (see commentMarker). */
function planCommentMarker(inputs: ActionInputs): string {
  return commentMarker(inputs.paths.join(','));
}

export function planCommentFooter(inputs: ActionInputs, context: WorkflowContext): string {
  return commentFooter(planCommentMarker(inputs), context.runUrl);
}
