/**
 * The one sticky pull-request comment. A hidden marker at the top of the body identifies the
 * comment this action owns; each run finds it among the PR's issue comments (all pages) and
 * edits it in place, so a PR shows one plan however often it is pushed. Only a comment this
 * action's identity wrote is taken: anyone can post the marker (a pull request's author first of
 * all), and a plan written into their comment would be text they can edit. The identity is
 * `github-actions[bot]` for GITHUB_TOKEN (the comment's `user.login` alone, never the app it was
 * `performed_via_github_app`), or the login the input `comment-author` names for an App
 * (`NAME[bot]`) or a personal token; `GET /user` is refused for integration tokens, so it is not asked. The token goes only into
 * the Authorization header of requests to the configured API origin (a `Link: next` URL on any
 * other origin is not followed), and never into an error message.
 */
import { nextPagePath, repoPath, request, requestWithLink, type RepoTarget } from './github-api.js';

/** The hidden marker; a `path` other than `.` is part of it, so several jobs keep one comment each. */
export function commentMarker(path: string): string {
  const normalized = path.trim().replace(/\/+$/, '') || '.';
  return normalized === '.' ? '<!-- autojoin-sync:plan -->' : `<!-- autojoin-sync:plan path=${normalized.replace(/-->/g, '')} -->`;
}

/** The identity GITHUB_TOKEN comments as. */
export const DEFAULT_COMMENT_AUTHOR = 'github-actions[bot]';

/** Where and as whom to comment. */
export interface CommentTarget extends RepoTarget {
  issueNumber: number;
  /** The login this action's comments are written by (default {@link DEFAULT_COMMENT_AUTHOR}). */
  author?: string;
}

interface IssueComment {
  id: number;
  body?: string;
  user?: { login?: string } | null;
}

/**
 * @returns whether `comment` was written by `author`: its `user.login` alone. The GitHub App a
 *   comment was `performed_via_github_app` is not the author: a person commenting through that
 *   App with their own token would own the comment, and every later plan would be written into it.
 */
export function writtenBy(comment: IssueComment, author: string): boolean {
  return comment.user?.login?.toLowerCase() === author.toLowerCase();
}

/**
 * Creates the comment carrying `marker`, or updates it when the PR already has one.
 * @param target the PR and credentials
 * @param marker the hidden marker (see commentMarker); `body` must start with it
 * @param body the complete comment body
 * @returns what was done and the comment's id
 */
export async function upsertComment(
  target: CommentTarget,
  marker: string,
  body: string,
): Promise<{ action: 'created' | 'updated'; id: number }> {
  const base = `${repoPath(target)}/issues`;
  const existing = await findComment(target, `${base}/${target.issueNumber}/comments?per_page=100`, marker);
  if (existing) {
    await request(target, 'PATCH', `${base}/comments/${existing.id}`, { body });
    return { action: 'updated', id: existing.id };
  }
  const created = (await request(target, 'POST', `${base}/${target.issueNumber}/comments`, { body })) as IssueComment;
  return { action: 'created', id: created.id };
}

async function findComment(target: CommentTarget, firstPage: string, marker: string): Promise<IssueComment | undefined> {
  let next: string | undefined = firstPage;
  for (let page = 0; next && page < 100; page++) {
    const { data, link } = await requestWithLink(target, 'GET', next);
    const author = target.author ?? DEFAULT_COMMENT_AUTHOR;
    const found = (data as IssueComment[]).find((comment) => comment.body?.includes(marker) && writtenBy(comment, author));
    if (found) return found;
    next = nextPagePath(link, target.apiUrl);
  }
  return undefined;
}


export { GitHubApiError, nextPagePath } from './github-api.js';
