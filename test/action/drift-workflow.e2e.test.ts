/**
 * examples/workflows/drift.yml end to end: the action's drift plan (dist/action.js against the
 * emulator), then the workflow's own actions/github-script step, run as github-script runs it
 * (the script as an async function body with `github`, `context`, `core`, `require`), with a
 * `github.rest.issues` client that sends real REST calls to the fake GitHub API.
 */
import { createRequire } from 'node:module';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.js';
import { REPO_ROOT, runAction, type ActionRun } from './support/run-action.js';
import { commitAll } from '../support/git.js';

const API_KEY = 'ak-drift-test-NEVER-SHOWN-0b7e';
const TOKEN = 'ghs_driftWorkflowToken0123456789';
const ENG = 'scope: acme-eng\nscopeType: team\ncomponentId: cmp_1\ndomains:\n  - acme.com\n';

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

const workflow = parse(await readFile(join(REPO_ROOT, 'examples/workflows/drift.yml'), 'utf8')) as {
  permissions: Record<string, string>;
  jobs: { drift: { steps: Step[] } };
};
const steps = workflow.jobs.drift.steps;
const planStep = steps.find((step) => step.id === 'drift') as Step;
const issueStep = steps.find((step) => step.uses?.startsWith('actions/github-script@')) as Step;

let emulator: Emulator;
let github: FakeGitHub;
let workspace: string;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  github = await startFakeGitHub('acme', 'policies', TOKEN);
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-drift-'));
  await mkdir(join(workspace, 'policies'));
  await writeFile(join(workspace, 'policies/eng.autojoin.yaml'), ENG);
  commitAll(workspace); // the workflow checks out the whole history (fetch-depth: 0): prune reads it
});

afterEach(async () => {
  await Promise.all([emulator.close(), github.close(), rm(workspace, { recursive: true, force: true })]);
});

/** The drift step with the workflow's own inputs (secrets and vars replaced by the test's). */
async function driftPlan(): Promise<ActionRun> {
  const inputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(planStep.with ?? {})) inputs[name] = String(value);
  Object.assign(inputs, { 'base-url': emulator.url, 'api-key': API_KEY, 'github-token': TOKEN });
  return runAction({ inputs, workspace, eventName: 'schedule', payload: { schedule: '17 3 * * *' }, apiUrl: github.url });
}

/** `${{ steps.drift.outputs.NAME }}` → the output; the step's `if:` as the workflow states it. */
function stepEnv(run: ActionRun, planFile: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, expression] of Object.entries(issueStep.env ?? {})) {
    const output = /^\$\{\{ steps\.drift\.outputs\.([\w-]+) \}\}$/.exec(expression)?.[1] ?? '';
    env[name] = output === 'plan-json' ? planFile : (run.outputs[output] ?? '');
  }
  return env;
}

function issueStepRuns(run: ActionRun): boolean {
  expect(issueStep.if).toBe("${{ always() && (steps.drift.outputs.exit-code == '2' || steps.drift.outputs.exit-code == '0') }}");
  return ['0', '2'].includes(run.outputs['exit-code'] ?? '');
}

/** What github-script gives the script: the issues calls the script uses, as REST requests. */
function octokitIssues(): unknown {
  const call = async (method: string, path: string, body?: unknown): Promise<{ data: unknown }> => {
    const response = await fetch(`${github.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
    return { data: await response.json() };
  };
  const base = (p: { owner: string; repo: string }): string => `/repos/${p.owner}/${p.repo}/issues`;
  type P = { owner: string; repo: string; issue_number: number } & Record<string, unknown>;
  const without = (p: P, ...keys: string[]): Record<string, unknown> => Object.fromEntries(Object.entries(p).filter(([k]) => !['owner', 'repo', 'issue_number', ...keys].includes(k)));
  return {
    rest: {
      issues: {
        listForRepo: (p: P) => call('GET', `${base(p)}?${new URLSearchParams(without(p) as Record<string, string>).toString()}`),
        create: (p: P) => call('POST', base(p), without(p)),
        update: (p: P) => call('PATCH', `${base(p)}/${p.issue_number}`, without(p)),
        createComment: (p: P) => call('POST', `${base(p)}/${p.issue_number}/comments`, without(p)),
      },
    },
  };
}

/** Runs the drift job: the plan step, then (when its `if:` holds) the github-script step. */
async function driftJob(): Promise<{ run: ActionRun; log: string[] }> {
  const run = await driftPlan();
  const log: string[] = [];
  if (!issueStepRuns(run)) return { run, log };
  const planFile = join(workspace, 'plan.json');
  await writeFile(planFile, run.planJson ?? '{}');
  const script = String(issueStep.with?.script);
  // The constructor of async functions, as actions/github-script runs a script with.
  // eslint-disable-next-line @typescript-eslint/require-await -- only the function's constructor is wanted
  const AsyncFunction = (async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;
  const context = { repo: { owner: 'acme', repo: 'policies' }, serverUrl: 'https://github.com', runId: 4242 };
  const core = { info: (line: string) => log.push(line) };
  await new AsyncFunction('github', 'context', 'core', 'require', 'process', script)(
    octokitIssues(), context, core, createRequire(import.meta.url), { env: stepEnv(run, planFile) },
  );
  return { run, log };
}

describe('the drift workflow', () => {
  it('may write issues, the adopt branch and its pull request, and nothing else', () => {
    expect(workflow.permissions).toEqual({ contents: 'write', issues: 'write', 'pull-requests': 'write' }); // write: the adopt step's branch and pull request
    for (const expression of Object.values(issueStep.env ?? {})) expect(expression).toMatch(/^\$\{\{ steps\.drift\.outputs\.[\w-]+ \}\}$/);
    expect(String(issueStep.with?.script)).not.toContain('${{'); // outputs reach the script through env only
  });

  it('opens one issue on drift, updates it while drift lasts, closes it when drift is gone', async () => {
    const first = await driftJob();
    expect(first.run.outputs['exit-code']).toBe('2');
    expect(github.issues).toHaveLength(1);
    const [issue] = github.issues;
    expect(issue).toMatchObject({ state: 'open', labels: [{ name: 'autojoin-drift' }], title: expect.stringContaining('autojoin drift') });
    expect(issue?.body).toContain('<!-- autojoin-sync:drift -->');
    expect(issue?.body).toContain('**1 to create, 0 to update, 0 to clear, 0 unchanged.**');
    expect(issue?.body).toContain('- `team/acme-eng` create: +1 / -0');
    expect(issue?.body).toContain('https://github.com/acme/policies/actions/runs/4242');

    await writeFile(join(workspace, 'policies/ops.autojoin.yaml'), ENG.replace('acme-eng', 'acme-ops'));
    const second = await driftJob();
    expect(second.log).toEqual([`updated drift issue #${issue?.number}`]);
    expect(github.issues).toHaveLength(1);
    expect(github.issues[0]?.body).toContain('**2 to create');

    const apply = await runAction({
      inputs: { command: 'apply', path: 'policies', 'base-url': emulator.url, 'api-key': API_KEY, 'github-token': TOKEN },
      workspace, eventName: 'push', payload: {}, apiUrl: github.url,
    });
    expect(apply.code, apply.stdout).toBe(0);
    const clean = await driftJob();
    expect(clean.run.outputs['exit-code']).toBe('0');
    expect(clean.log).toEqual([`closed drift issue #${issue?.number}`]);
    expect(github.issues[0]).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(github.comments.filter((c) => c.issue === issue?.number).map((c) => c.body)).toEqual([
      expect.stringMatching(/^No drift any more: the service matches the policy files again/),
    ]);

    const quiet = await driftJob();
    expect(quiet.log).toEqual(['no drift, no open drift issue']);
    expect(github.issues).toHaveLength(1);
  });

  it('leaves the issue alone when the plan fails (exit code 1)', async () => {
    await writeFile(join(workspace, 'policies/bad.autojoin.yaml'), 'scope: x\nscopeType: team\ncomponentId: c\ndomains: [gmail.com]\n');
    const failed = await driftJob();
    expect(failed.run.outputs['exit-code']).toBe('1');
    expect(github.requests.filter((request) => request.url.includes('/issues'))).toEqual([]);
  });
});
