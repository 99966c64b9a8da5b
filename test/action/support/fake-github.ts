/**
 * A small fake of the GitHub REST API's issue-comment calls on 127.0.0.1, recording every request:
 * list a PR's comments (paginated with `per_page`/`page` and a `Link` header, as GitHub does),
 * create one, update one; issues: list a repository's (by `state` and `labels`), create, update;
 * pull requests: list (by `state` and `head`), open, update. `writeStatus` makes create/update answer e.g. 403, as for a fork PR's token.
 * Comments carry their author as GitHub shows it: `user` ({login, type}) and `performed_via_github_app`
 * (the app's slug for an App's token, null otherwise); the token's identity is `github-actions[bot]`
 * unless told, and `GET /user` is refused for a bot's (integration) token, as GitHub refuses it.
 * Deployments (test/action/support/fake-deployments.ts): create one and its statuses, checking each
 * body as the REST API documents it; list the pull requests of a commit.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDeployments, type FakeDeployments } from './fake-deployments.js';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  authorization: string | undefined;
  body: string;
}

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  user: { login: string; type?: 'User' | 'Bot' };
  performed_via_github_app?: { slug: string } | null;
}

/** Whom the fake's token belongs to. */
export interface FakeIdentity {
  /** Default `github-actions[bot]` (GITHUB_TOKEN); `NAME[bot]` for an App; a user's login for a personal token. */
  login: string;
  /** An App's slug (its comments are `performed_via_github_app`). */
  app?: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason?: string | null;
  labels: { name: string }[];
}

export interface FakePull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  state: 'open' | 'closed';
  html_url: string;
}

export interface FakeGitHub {
  url: string;
  /** Deployments, their statuses, and the pull requests of each commit (GET /commits/{sha}/pulls). */
  deployments: FakeDeployments;
  pulls: FakePull[];
  requests: RecordedRequest[];
  comments: FakeComment[];
  issues: FakeIssue[];
  /** Status for POST/PATCH (default 0: behave normally). */
  writeStatus: number;
  /** Adds unrelated comments to an issue (to force pagination). */
  seed(issue: number, count: number): void;
  /** Adds a comment written by someone else (e.g. the pull request's author). */
  seedComment(issue: number, body: string, login: string): FakeComment;
  close(): Promise<void>;
}

/** Starts the fake on a free loopback port; `token` is the only one it accepts. */
export async function startFakeGitHub(owner: string, repo: string, token: string, identity: FakeIdentity = { login: 'github-actions[bot]' }): Promise<FakeGitHub> {
  const state = { requests: [] as RecordedRequest[], comments: [] as FakeComment[], issues: [] as FakeIssue[], pulls: [] as FakePull[], nextId: 1000, writeStatus: 0 };
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
      handle(req, res, body);
    });
  });
  const prefix = `/repos/${owner}/${repo}/issues`;
  const deployments = createDeployments(owner, repo, () => state.nextId++);
  const baseUrl = (): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    if (req.headers.authorization !== `Bearer ${token}`) { send(res, 401, { message: 'Bad credentials' }); return; }
    const url = new URL(req.url ?? '/', baseUrl());
    if (url.pathname === '/user' && req.method === 'GET') {
      if (identity.login.endsWith('[bot]')) send(res, 403, { message: 'Resource not accessible by integration' });
      else send(res, 200, { login: identity.login, type: 'User' });
      return;
    }
    const list = new RegExp(`^${prefix}/(\\d+)/comments$`).exec(url.pathname);
    const one = new RegExp(`^${prefix}/comments/(\\d+)$`).exec(url.pathname);
    if (list && req.method === 'GET') { listComments(res, url, Number(list[1])); return; }
    const issue = new RegExp(`^${prefix}(?:/(\\d+))?$`).exec(url.pathname);
    if (issue && !issue[1] && req.method === 'GET') { send(res, 200, listIssues(url)); return; }
    if (deployments.handles(req.method ?? '', url.pathname) && !(state.writeStatus && req.method === 'POST')) {
      const answer = deployments.handle(req.method ?? '', url.pathname, body);
      send(res, answer.status, answer.data);
      return;
    }
    if (state.writeStatus && (req.method === 'POST' || req.method === 'PATCH')) {
      send(res, state.writeStatus, { message: 'Resource not accessible by integration' });
      return;
    }
    if (list && req.method === 'POST') { send(res, 201, addComment(Number(list[1]), parse(body))); return; }
    if (one && req.method === 'PATCH') { updateComment(res, Number(one[1]), parse(body)); return; }
    if (issue && !issue[1] && req.method === 'POST') { send(res, 201, addIssue(JSON.parse(body) as Partial<FakeIssue> & { labels?: string[] })); return; }
    if (issue?.[1] && req.method === 'PATCH') { updateIssue(res, Number(issue[1]), JSON.parse(body) as Partial<FakeIssue>); return; }
    const pull = new RegExp(`^/repos/${owner}/${repo}/pulls(?:/(\\d+))?$`).exec(url.pathname);
    if (pull && !pull[1] && req.method === 'GET') { send(res, 200, listPulls(url)); return; }
    if (pull && !pull[1] && req.method === 'POST') { openPull(res, JSON.parse(body) as Partial<FakePull>); return; }
    if (pull?.[1] && req.method === 'PATCH') { updatePull(res, Number(pull[1]), JSON.parse(body) as Partial<FakePull>); return; }
    send(res, 404, { message: 'Not Found' });
  }

  function listComments(res: ServerResponse, url: URL, issue: number): void {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100);
    const page = Number(url.searchParams.get('page') ?? 1);
    const all = state.comments.filter((comment) => comment.issue === issue);
    const slice = all.slice((page - 1) * perPage, page * perPage);
    if (page * perPage < all.length) {
      const next = new URL(url);
      next.searchParams.set('page', String(page + 1));
      res.setHeader('link', `<${next.href}>; rel="next", <${next.href}>; rel="last"`);
    }
    send(res, 200, slice);
  }

  function addComment(issue: number, body: string, login = identity.login): FakeComment {
    const app = login === identity.login ? identity.app : undefined;
    const comment: FakeComment = {
      id: state.nextId++,
      issue,
      body,
      user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
      performed_via_github_app: app === undefined ? null : { slug: app },
    };
    state.comments.push(comment);
    return comment;
  }

  function listIssues(url: URL): FakeIssue[] {
    const wanted = url.searchParams.get('state') ?? 'open';
    const labels = (url.searchParams.get('labels') ?? '').split(',').filter(Boolean);
    return state.issues.filter(
      (issue) => (wanted === 'all' || issue.state === wanted) && labels.every((name) => issue.labels.some((label) => label.name === name)),
    );
  }

  function addIssue(input: { title?: string; body?: string; labels?: string[] }): FakeIssue {
    const issue: FakeIssue = { number: state.nextId++, title: input.title ?? '', body: input.body ?? '', state: 'open', labels: (input.labels ?? []).map((name) => ({ name })) };
    state.issues.push(issue);
    return issue;
  }

  function updateIssue(res: ServerResponse, number: number, input: Partial<FakeIssue>): void {
    const issue = state.issues.find((candidate) => candidate.number === number);
    if (!issue) { send(res, 404, { message: 'Not Found' }); return; }
    if (input.body !== undefined) issue.body = input.body;
    if (input.state !== undefined) issue.state = input.state;
    if (input.state_reason !== undefined) issue.state_reason = input.state_reason;
    send(res, 200, issue);
  }

  function listPulls(url: URL): FakePull[] {
    const wanted = url.searchParams.get('state') ?? 'open';
    const head = url.searchParams.get('head');
    return state.pulls.filter((pull) => (wanted === 'all' || pull.state === wanted) && (head === null || `${owner}:${pull.head}` === head));
  }

  function openPull(res: ServerResponse, input: Partial<FakePull>): void {
    if (!input.head || !input.base || !input.title) { send(res, 422, { message: 'Validation Failed' }); return; }
    if (state.pulls.some((pull) => pull.state === 'open' && pull.head === input.head)) { send(res, 422, { message: 'A pull request already exists' }); return; }
    const number = state.nextId++;
    const pull: FakePull = { number, title: input.title, body: input.body ?? '', head: input.head, base: input.base, state: 'open', html_url: `https://github.example/${owner}/${repo}/pull/${number}` };
    state.pulls.push(pull);
    send(res, 201, pull);
  }

  function updatePull(res: ServerResponse, number: number, input: Partial<FakePull>): void {
    const pull = state.pulls.find((candidate) => candidate.number === number);
    if (!pull) { send(res, 404, { message: 'Not Found' }); return; }
    if (input.title !== undefined) pull.title = input.title;
    if (input.body !== undefined) pull.body = input.body;
    send(res, 200, pull);
  }

  function updateComment(res: ServerResponse, id: number, body: string): void {
    const comment = state.comments.find((candidate) => candidate.id === id);
    if (!comment) { send(res, 404, { message: 'Not Found' }); return; }
    comment.body = body;
    send(res, 200, comment);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: baseUrl(),
    deployments,
    requests: state.requests,
    comments: state.comments,
    issues: state.issues,
    pulls: state.pulls,
    get writeStatus() {
      return state.writeStatus;
    },
    set writeStatus(status: number) {
      state.writeStatus = status;
    },
    seed(issue, count) {
      for (let i = 0; i < count; i++) addComment(issue, `unrelated comment ${i}`);
    },
    seedComment: (issue, body, login) => addComment(issue, body, login),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parse(body: string): string {
  const { body: text } = JSON.parse(body) as { body?: unknown };
  return typeof text === 'string' ? text : '';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

function send(res: ServerResponse, status: number, data: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(data));
}
