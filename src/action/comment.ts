/**
 * The one sticky pull-request comment. A hidden marker at the top of the body identifies the
 * comment this action owns; each run finds it among the PR's issue comments (all pages) and
 * edits it in place, so a PR shows one plan however often it is pushed. The token goes only into
 * the Authorization header of requests to the configured API origin (a `Link: next` URL on any
 * other origin is not followed), and never into an error message.
 */
import { VERSION } from '../version.js';

/** The hidden marker; a `path` other than `.` is part of it, so several jobs keep one comment each. */
export function commentMarker(path: string): string {
  const normalized = path.trim().replace(/\/+$/, '') || '.';
  return normalized === '.' ? '<!-- autojoin-sync:plan -->' : `<!-- autojoin-sync:plan path=${normalized.replace(/-->/g, '')} -->`;
}

/** Where and as whom to comment. */
export interface CommentTarget {
  /** e.g. https://api.github.com (GITHUB_API_URL). */
  apiUrl: string;
  token: string;
  owner: string;
  repo: string;
  issueNumber: number;
  /** Test seam; defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/** A GitHub REST call that did not succeed; the message names the call, never the token. */
export class GitHubApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number | undefined,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`[${method}] ${path}: ${status ?? 'request failed'} ${detail}`.trim(), options);
    this.name = 'GitHubApiError';
  }
}

interface IssueComment {
  id: number;
  body?: string;
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
  const base = `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}/issues`;
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
    const found = (data as IssueComment[]).find((comment) => comment.body?.includes(marker));
    if (found) return found;
    next = nextPagePath(link, target.apiUrl);
  }
  return undefined;
}

/** The path of the `rel="next"` page from a Link header, when it is on the API origin. */
export function nextPagePath(link: string | null, apiUrl: string): string | undefined {
  const match = /<([^>]+)>\s*;\s*rel="next"/.exec(link ?? '');
  if (!match?.[1]) return undefined;
  const url = new URL(match[1], apiUrl);
  const api = new URL(apiUrl);
  if (url.origin !== api.origin) return undefined;
  const prefix = api.pathname.replace(/\/$/, '');
  return url.pathname.slice(prefix.length) + url.search;
}

async function request(target: CommentTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  return (await requestWithLink(target, method, path, body)).data;
}

async function requestWithLink(
  target: CommentTarget,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ data: unknown; link: string | null }> {
  const fetchImpl = target.fetch ?? globalThis.fetch;
  const shownPath = path.split('?')[0] ?? path;
  let response: Response;
  try {
    response = await fetchImpl(`${target.apiUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: headers(target.token, body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new GitHubApiError(method, shownPath, undefined, error instanceof Error ? error.message : String(error), { cause: error });
  }
  const text = await response.text();
  if (!response.ok) throw new GitHubApiError(method, shownPath, response.status, apiMessage(text));
  return { data: text ? (JSON.parse(text) as unknown) : null, link: response.headers.get('link') };
}

function headers(token: string, hasBody: boolean): Record<string, string> {
  return {
    accept: 'application/vnd.github+json',
    authorization: `Bearer ${token}`,
    'x-github-api-version': '2022-11-28',
    'user-agent': `autojoin-sync/${VERSION}`,
    ...(hasBody ? { 'content-type': 'application/json' } : {}),
  };
}

function apiMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message.slice(0, 200);
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
