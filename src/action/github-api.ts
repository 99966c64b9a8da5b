/**
 * The GitHub REST calls the action makes (the sticky comment, the adopt pull request, the
 * deployments and their statuses): one request function, the token only in the Authorization
 * header of requests to the configured API origin (a `Link: next` URL on any other origin is not
 * followed), never in an error message.
 *
 * It is the action's one way out to GitHub, and its one outbound step: every string of every
 * request body passes the redactor (src/redact.ts) here, whatever the caller did before, so no
 * caller can send a body unredacted. A caller that shortens a text for display still cuts it with
 * cutText (redacted whole, then cut); redacting again here is a no-op on what cutText gave.
 */
import { VERSION } from '../version.js';
import { cutText, redactText } from '../redact.js';
import { outboundJson } from '../output/sinks.js';

/** A repository of the REST API, and as whom to call it. */
export interface RepoTarget {
  /** e.g. https://api.github.com (GITHUB_API_URL). */
  apiUrl: string;
  token: string;
  owner: string;
  repo: string;
  /** Test seam; defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/** `/repos/OWNER/REPO` of a target, each part encoded. */
export function repoPath(target: RepoTarget): string {
  return `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}`;
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

export async function request(target: RepoTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  return (await requestWithLink(target, method, path, body)).data;
}

export async function requestWithLink(
  target: RepoTarget,
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
      // The one outbound step (src/output/sinks.ts): every string of the body redacted whole.
      body: body === undefined ? undefined : outboundJson(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new GitHubApiError(method, shownPath, undefined, error instanceof Error ? error.message : String(error), { cause: error });
  }
  const text = await response.text();
  if (!response.ok) throw new GitHubApiError(method, shownPath, response.status, apiMessage(text));
  return { data: text ? parseAnswer(text, method, shownPath, response) : null, link: response.headers.get('link') };
}

/** A 2xx answer that is not JSON is named by its status, type and length; the parser's message quotes the body, so it is never shown. */
function parseAnswer(text: string, method: string, path: string, response: Response): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GitHubApiError(method, path, response.status, `the answer is not JSON (${response.headers.get('content-type') ?? 'no content-type'}, ${text.length} characters)`);
  }
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
    if (typeof parsed.message === 'string') return cutText(parsed.message, 200);
  } catch {
    // not JSON: fall through to the raw text
  }
  return cutText(redactText(text).replace(/\s+/g, ' '), 200);
}
