/**
 * The deployments part of the fake GitHub REST API (test/action/support/fake-github.ts), answering
 * as the REST API documents "Create a deployment" and "Create a deployment status":
 *  - POST /repos/{owner}/{repo}/deployments: `ref` is required; `auto_merge` defaults to true and
 *    `required_contexts` to every context of the commit: with a context in `failingContexts` that the
 *    request does not leave out by `required_contexts`, 409 "Conflict: Commit status checks failed";
 *    with auto_merge not false while `defaultBranchAhead`, 202 and a message, no deployment;
 *    otherwise 201 and the deployment (id, sha, ref, task, payload, environment, …); 422 for a body
 *    of the wrong shape;
 *  - POST …/deployments/{id}/statuses: `state` one of error, failure, inactive, in_progress, queued,
 *    pending, success; `description` at most 140 characters; 422 otherwise, 404 for no such deployment;
 *  - GET …/commits/{sha}/pulls: the pull requests associated with a commit (`commitPulls`).
 */

export interface FakeDeployment {
  id: number;
  sha: string;
  ref: string;
  task: string;
  payload: unknown;
  environment: string;
  description: string | null;
  /** The body as sent, for the tests' own checks. */
  request: Record<string, unknown>;
}

export interface FakeDeploymentStatus {
  id: number;
  deploymentId: number;
  state: string;
  description: string;
  log_url?: string;
  request: Record<string, unknown>;
}

export interface FakeDeployments {
  created: FakeDeployment[];
  statuses: FakeDeploymentStatus[];
  /** Status contexts of every commit that are failing (a deployment that requires one of them gets 409). */
  failingContexts: string[];
  /** The default branch is ahead of the ref: auto_merge (the default) would merge it, answering 202. */
  defaultBranchAhead: boolean;
  /** GET /commits/{sha}/pulls answers these. */
  commitPulls: Record<string, { number: number; merge_commit_sha: string | null; merged_at: string | null; state: string }[]>;
  handles(method: string, path: string): boolean;
  handle(method: string, path: string, body: string): { status: number; data: unknown };
}

const STATES = ['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success'];

export function createDeployments(owner: string, repo: string, nextId: () => number): FakeDeployments {
  const base = `/repos/${owner}/${repo}`;
  const list = new RegExp(`^${base}/deployments$`);
  const statusPath = new RegExp(`^${base}/deployments/(\\d+)/statuses$`);
  const pullsPath = new RegExp(`^${base}/commits/([^/]+)/pulls$`);
  const fake: FakeDeployments = {
    created: [],
    statuses: [],
    failingContexts: [],
    defaultBranchAhead: false,
    commitPulls: {},
    handles: (method, path) => (method === 'POST' && (list.test(path) || statusPath.test(path))) || (method === 'GET' && pullsPath.test(path)),
    handle(method, path, body) {
      const pulls = pullsPath.exec(path);
      if (pulls) return { status: 200, data: fake.commitPulls[decodeURIComponent(pulls[1] ?? '')] ?? [] };
      const parsed = parseBody(body);
      if (!parsed) return invalid('Problems parsing JSON');
      const status = statusPath.exec(path);
      return status ? createStatus(Number(status[1]), parsed) : createDeployment(parsed);
    },
  };

  function createDeployment(input: Record<string, unknown>): { status: number; data: unknown } {
    const shapeProblem = deploymentProblem(input);
    if (shapeProblem) return invalid(shapeProblem);
    const required = input.required_contexts === undefined ? fake.failingContexts : (input.required_contexts as string[]);
    const failing = required.filter((context) => fake.failingContexts.includes(context));
    if (failing.length > 0) return { status: 409, data: { message: `Conflict: Commit status checks failed for ${String(input.ref)}.`, errors: [{ contexts: failing.map((context) => ({ context, state: 'failure' })), resource: 'Deployment', field: 'required_contexts', code: 'invalid' }] } };
    if (input.auto_merge !== false && fake.defaultBranchAhead) return { status: 202, data: { message: `Auto-merged main into ${String(input.ref)} on deployment.` } };
    const deployment: FakeDeployment = {
      id: nextId(),
      sha: String(input.ref),
      ref: String(input.ref),
      task: typeof input.task === 'string' ? input.task : 'deploy',
      payload: input.payload ?? {},
      environment: typeof input.environment === 'string' ? input.environment : 'production',
      description: typeof input.description === 'string' ? input.description : null,
      request: input,
    };
    fake.created.push(deployment);
    const { request: _request, ...shown } = deployment;
    return { status: 201, data: { ...shown, url: `https://api.github.example${base}/deployments/${deployment.id}`, creator: { login: 'github-actions[bot]' } } };
  }

  function createStatus(deploymentId: number, input: Record<string, unknown>): { status: number; data: unknown } {
    if (!fake.created.some((deployment) => deployment.id === deploymentId)) return { status: 404, data: { message: 'Not Found' } };
    if (typeof input.state !== 'string' || !STATES.includes(input.state)) return invalid(`state is not included in the list: ${String(input.state)}`);
    const description = input.description ?? '';
    if (typeof description !== 'string') return invalid('description is not a string');
    if (description.length > 140) return invalid('description is too long (maximum is 140 characters)');
    for (const field of ['log_url', 'target_url', 'environment_url', 'environment']) {
      if (input[field] !== undefined && typeof input[field] !== 'string') return invalid(`${field} is not a string`);
    }
    const status: FakeDeploymentStatus = { id: nextId(), deploymentId, state: input.state, description, request: input };
    if (typeof input.log_url === 'string') status.log_url = input.log_url;
    fake.statuses.push(status);
    const { request: _request, ...shown } = status;
    return { status: 201, data: { ...shown, deployment_url: `https://api.github.example${base}/deployments/${deploymentId}` } };
  }

  return fake;
}

function deploymentProblem(input: Record<string, unknown>): string | null {
  if (typeof input.ref !== 'string' || input.ref === '') return 'ref is missing';
  if (input.auto_merge !== undefined && typeof input.auto_merge !== 'boolean') return 'auto_merge is not a boolean';
  const contexts = input.required_contexts;
  if (contexts !== undefined && (!Array.isArray(contexts) || contexts.some((context) => typeof context !== 'string'))) return 'required_contexts is not an array of strings';
  const payload = input.payload;
  if (payload !== undefined && typeof payload !== 'string' && (typeof payload !== 'object' || payload === null || Array.isArray(payload))) return 'payload is not an object or a string';
  for (const field of ['task', 'environment', 'description']) {
    if (input[field] !== undefined && input[field] !== null && typeof input[field] !== 'string') return `${field} is not a string`;
  }
  return null;
}

function invalid(message: string): { status: number; data: unknown } {
  return { status: 422, data: { message: 'Validation Failed', errors: [{ resource: 'Deployment', code: 'custom', message }], documentation_url: 'https://docs.github.com/rest' } };
}

function parseBody(body: string): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
