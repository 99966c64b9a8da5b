/**
 * Issue 37, in-process (run() with `@actions/core` replaced, as test/action/main.test.ts), against
 * the emulator and the fake GitHub REST API on 127.0.0.1 (test/action/support/fake-github.ts):
 *  - every refusal (safety limit, stale saved plan, ownership) is in the job summary with the limit,
 *    the count and the input that overrides it, and every output is set on every outcome;
 *  - in a pull request the caution says what the reviewer can do, not "run again with input …";
 *  - `command: validate` writes a SARIF file (`sarif-file`) valid against the OASIS schema;
 *  - `deployment-environment`: one deployment and one status per apply, as the REST API documents.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.js';
import { pullRequestPayload, pushPayload } from './support/run-action.js';
import { githubSubsetProblems, sarifSchemaValidator } from '../support/sarif.js';

const core = await vi.hoisted(async () => (await import('../support/actions-core.js')).fakeActionsCore());
vi.mock('@actions/core', () => core);

const { run } = await import('../../src/action/main.js');
const { OUTPUT_NAMES } = await import('../../src/action/outputs.js');

const API_KEY = 'ak-native-test-9c1d';
const TOKEN = 'ghs_native_token_1';
const SHA = 'c0ffee'.padEnd(40, '0');
const DOMAINS = Array.from({ length: 12 }, (_, i) => `d${String(i).padStart(2, '0')}.example`);
const policy = (domains: readonly string[]): string => `scope: acme-eng\nscopeType: team\ncomponentId: cmp_8f2c\ndomains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

let emulator: Emulator;
let github: FakeGitHub;
let workspace: string;

beforeEach(async () => {
  vi.clearAllMocks();
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  github = await startFakeGitHub('acme', 'policies', TOKEN);
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-native-ws-'));
  await writeFiles({ 'policies/eng.autojoin.yaml': policy(DOMAINS) });
  for (const name of ['AUTOJOIN_API_KEY', 'AUTOJOIN_ACCESS_TOKEN', 'AUTOJOIN_BASE_URL', 'VORTEX_API_KEY', 'AUTOJOIN_LOG', 'AUTOJOIN_LISTING']) vi.stubEnv(name, undefined);
  vi.stubEnv('GITHUB_WORKSPACE', workspace);
  vi.stubEnv('RUNNER_TEMP', join(workspace, 'tmp'));
  vi.stubEnv('GITHUB_STEP_SUMMARY', join(workspace, 'summary.md')); // writes go to the mocked summary
  vi.stubEnv('GITHUB_ACTION', 'plan-step');
  vi.stubEnv('GITHUB_REPOSITORY', 'acme/policies');
  vi.stubEnv('GITHUB_API_URL', github.url);
  vi.stubEnv('GITHUB_SERVER_URL', 'https://github.com');
  vi.stubEnv('GITHUB_RUN_ID', '4242');
  vi.stubEnv('GITHUB_SHA', SHA);
  vi.stubEnv('GITHUB_ACTOR', 'octocat');
  await onEvent('push', pushPayload('b'.repeat(40), SHA));
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all([emulator.close(), github.close(), rm(workspace, { recursive: true, force: true })]);
});

async function writeFiles(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
}

async function onEvent(name: string, payload: unknown): Promise<void> {
  await writeFiles({ 'event.json': JSON.stringify(payload) });
  vi.stubEnv('GITHUB_EVENT_NAME', name);
  vi.stubEnv('GITHUB_EVENT_PATH', join(workspace, 'event.json'));
}

/** Runs run() afresh with these inputs (mocks cleared first). */
async function runWith(inputs: Record<string, string>): Promise<void> {
  vi.clearAllMocks();
  const all: Record<string, string> = { 'base-url': emulator.url, 'api-key': API_KEY, 'github-token': TOKEN, path: 'policies', comment: 'false', ...inputs };
  core.getInput.mockImplementation((name) => all[name] ?? '');
  await run();
}

function outputs(): Record<string, string> {
  return Object.fromEntries(core.setOutput.mock.calls);
}

function jobSummary(): string {
  return core.summary.addRaw.mock.calls.map((call) => String(call[0])).join('');
}

function expectEveryOutputOnce(): void {
  expect(core.setOutput.mock.calls.map((call) => call[0]).sort()).toEqual([...OUTPUT_NAMES].sort());
}

describe('refusals in the job summary, every output on every outcome', () => {
  it('an apply refused by max-removals writes the limit, the count and the input to the summary, and sets every output', async () => {
    await runWith({ command: 'apply' });
    await writeFiles({ 'policies/eng.autojoin.yaml': policy(DOMAINS.slice(0, 1)) });
    await runWith({ command: 'apply', 'max-removals': '5' });
    expect(outputs()['exit-code']).toBe('3');
    expect(jobSummary()).toContain('> **Refused: nothing was written** (exit code 3).');
    expect(jobSummary()).toContain('| safety limit max-removals | 5 domains removed in one run | 11 domains removed (team/acme-eng) | input max-removals: 11 |');
    expectEveryOutputOnce();
    expect(outputs()).toMatchObject({
      'has-changes': 'true',
      'plan-sha256': expect.stringMatching(/^[0-9a-f]{64}$/u),
      'drift-count': '0',
      summary: 'refused by safety limit max-removals: 11 domains removed (team/acme-eng); limit 5 domains removed in one run; nothing was written',
    });
    expect(emulator.data().scopes['team/acme-eng']?.autojoin?.domains).toHaveLength(12);
  });

  it('a stale saved plan is a refusal in the summary (the count of scopes that moved, what to do), every output set', async () => {
    await runWith({ command: 'plan' });
    const planned = outputs();
    await writeFiles({ 'reviewed-plan.json': await readFile(planned['plan-json'] ?? '', 'utf8') });
    await writeFiles({ 'policies/eng.autojoin.yaml': policy(DOMAINS.slice(0, 3)) });
    await runWith({ command: 'apply', 'allow-empty': 'true' }); // the live state moves after the plan
    await runWith({ command: 'apply', 'plan-file': 'reviewed-plan.json', 'plan-sha256': planned['plan-sha256'] ?? '' });
    expect(core.setFailed.mock.calls).toEqual([[expect.stringMatching(/stale/u)]]);
    expect(outputs()['exit-code']).toBe('4');
    expect(jobSummary()).toContain('| stale saved plan |');
    expect(jobSummary()).toContain('1 scope changed since the plan was made (team/acme-eng)');
    expect(jobSummary()).toContain('make a new plan');
    expectEveryOutputOnce();
    expect(outputs().summary).toMatch(/^refused by stale saved plan: 1 scope changed/);
  });

  it('a scope owned elsewhere is a refusal naming input take-ownership, every output set', async () => {
    await writeFiles({ 'policies/autojoin-sync.yaml': 'owner: other-team\n' });
    await runWith({ command: 'apply' });
    await writeFiles({ 'policies/autojoin-sync.yaml': 'owner: platform\n', 'policies/eng.autojoin.yaml': policy(DOMAINS.slice(0, 11)) });
    await runWith({ command: 'apply' });
    expect(outputs()['exit-code']).toBe('1');
    expect(jobSummary()).toMatch(/\| ownership \| .* \| 1 scope owned elsewhere \(team\/acme-eng: other-team\) \| input take-ownership: team\/acme-eng, or/u);
    expectEveryOutputOnce();
    expect(outputs().summary).toMatch(/^refused by ownership: 1 scope owned elsewhere/);
  });

  it('a checkout behind the last apply is a refusal naming input allow-behind, every output set, nothing written', async () => {
    const git = (...args: string[]): void => void execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
    const commit = (): void => {
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'policies');
    };
    git('init', '-q');
    commit();
    await runWith({ command: 'apply' }); // the marker names this history's commit
    // Another history (a rewrite, another clone's): the marker's commit is not an ancestor of HEAD.
    await rm(join(workspace, '.git'), { recursive: true, force: true });
    git('init', '-q');
    await writeFiles({ 'policies/eng.autojoin.yaml': policy(DOMAINS.slice(0, 11)) });
    commit();
    const before = emulator.data().scopes['team/acme-eng']?.autojoin?.domains;
    await runWith({ command: 'apply' });
    expect(outputs()['exit-code']).toBe('1');
    expect(jobSummary()).toContain('> **Refused: nothing was written** (exit code 1).');
    expect(jobSummary()).toMatch(/\| behind checkout \| .* \| 1 scope written from a commit this checkout does not contain \(team\/acme-eng: commit [0-9a-f]{12}\) \| update the checkout .*input allow-behind: team\/acme-eng \|/u);
    expectEveryOutputOnce();
    expect(outputs().summary).toMatch(/^refused by behind checkout: 1 scope written from a commit/u);
    expect(emulator.data().scopes['team/acme-eng']?.autojoin?.domains).toEqual(before);
  });

  it('an invalid input still sets every output', async () => {
    await runWith({ command: 'apply', concurrency: 'many' });
    expectEveryOutputOnce();
    expect(outputs()).toMatchObject({ 'exit-code': '1', summary: 'input concurrency: "many" is not a whole number from 1 to 256', 'drift-count': '' });
  });

  it('in a pull request the caution says what the reviewer can do, not to run again with an input', async () => {
    await runWith({ command: 'apply' });
    await writeFiles({ 'policies/eng.autojoin.yaml': policy(DOMAINS.slice(0, 1)) });
    await onEvent('pull_request', pullRequestPayload(7));
    await runWith({ command: 'plan', 'max-removals': '5' });
    const caution = String(core.warning.mock.calls[0]?.[0]);
    expect(caution).toBe(
      'apply would refuse this plan: safety limit max-removals: 11 domains removed (team/acme-eng), over the limit of 5 domains removed in one run. ' +
        "To let it through: raise `safety.maxRemovals` in autojoin-sync.yaml to 11 in this pull request, ask for the apply workflow's input `max-removals: 11`, or split the change into smaller pull requests",
    );
    expect(jobSummary()).toContain('To let it through: raise &#96;safety.maxRemovals&#96; in autojoin-sync.yaml to 11 in this pull request');
    expect(jobSummary()).not.toContain('run again');
  });
});

describe('command: validate writes SARIF for code scanning', () => {
  it('sets sarif-file to a SARIF 2.1.0 file valid against the OASIS schema, files relative to the repository root', async () => {
    await writeFiles({
      'policies/autojoin-sync.yaml': 'rules:\n  - name: no-io\n    deny: ["*.io"]\n',
      'policies/bad.autojoin.yaml': 'scope: acme-bad\nscopeType: team\ncomponentId: cmp_8f2c\ndomains:\n  - gmail.com\n',
      'policies/ops.autojoin.yaml': 'scope: acme-ops\nscopeType: team\ncomponentId: cmp_8f2c\ndomains:\n  - contractor.io\n',
    });
    await runWith({ command: 'validate', 'base-url': '', 'api-key': '' });
    expectEveryOutputOnce();
    const file = outputs()['sarif-file'] ?? '';
    expect(file).toBe(join(workspace, 'tmp', 'autojoin-sync', 'validate-plan-step.sarif'));
    const log = JSON.parse(await readFile(file, 'utf8')) as { runs: { tool: { driver: { rules: { id: string }[] } }; results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    expect(sarifSchemaValidator()(log)).toBe(true);
    expect(githubSubsetProblems(log)).toEqual([]);
    expect(log.runs[0]?.tool.driver.rules.map((rule) => rule.id)).toEqual(['webmail-domain', 'rule/no-io']);
    expect(log.runs[0]?.results.map((result) => result.locations[0]?.physicalLocation.artifactLocation.uri)).toEqual(['policies/bad.autojoin.yaml', 'policies/ops.autojoin.yaml']);
  });
});

describe('command: validate with an invalid project file', () => {
  it('still writes sarif-file, holding the project file\'s findings', async () => {
    await writeFiles({ 'policies/autojoin-sync.yaml': 'bogus: 1\n' });
    await runWith({ command: 'validate', 'base-url': '', 'api-key': '' });
    expect(outputs()['exit-code']).toBe('1');
    const log = JSON.parse(await readFile(outputs()['sarif-file'] ?? '', 'utf8')) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    expect(sarifSchemaValidator()(log)).toBe(true);
    expect(log.runs[0]?.results.map((result) => [result.ruleId, result.locations[0]?.physicalLocation.artifactLocation.uri])).toEqual([['unknown-key', 'policies/autojoin-sync.yaml']]);
  });
});

describe('command: validate that fails for another reason', () => {
  it('writes no SARIF file, so no empty log closes the open alerts', async () => {
    await mkdir(join(workspace, 'empty'));
    await runWith({ command: 'validate', 'base-url': '', 'api-key': '', path: 'empty' }); // no policy file: an error, not a finding
    expect(outputs()).toMatchObject({ 'exit-code': '1', 'sarif-file': '' });
  });
});

describe('deployment-environment: applies in the deployments log', () => {
  const deploy = { 'deployment-environment': 'autojoin-production' };

  it('an apply on push creates one deployment (auto_merge false, no required contexts, the payload) and one success status', async () => {
    github.deployments.commitPulls[SHA] = [{ number: 7, merge_commit_sha: SHA, merged_at: '2026-11-26T10:00:00Z', state: 'closed' }];
    github.deployments.failingContexts = ['ci/flaky']; // would answer 409 to a deployment requiring every context
    await runWith({ command: 'apply', ...deploy });
    expect(core.setFailed).not.toHaveBeenCalled();
    expect(github.deployments.created).toHaveLength(1);
    const [deployment] = github.deployments.created;
    expect(deployment?.request).toEqual({
      ref: SHA,
      task: 'deploy:autojoin-sync',
      environment: 'autojoin-production',
      auto_merge: false,
      required_contexts: [],
      description: 'autojoin-sync apply of #7',
      payload: {
        tool: 'autojoin-sync',
        planSha256: outputs()['plan-sha256'],
        counts: { create: 1, update: 0, clear: 0, unchanged: 0, domainsAdded: 12, domainsRemoved: 0 },
        actor: 'octocat',
        pullRequest: 7,
        commit: SHA,
        result: 'success',
      },
    });
    expect(github.deployments.statuses).toEqual([
      expect.objectContaining({ deploymentId: deployment?.id, state: 'success', log_url: 'https://github.com/acme/policies/actions/runs/4242' }),
    ]);
    expect(github.deployments.statuses[0]?.description).toMatch(/^applied: 1 to create/u);
    expect(outputs()['deployment-id']).toBe(String(deployment?.id));
  });

  it('a refused apply is recorded with a failure status whose description, under 140 characters, says refused', async () => {
    await runWith({ command: 'apply' });
    await writeFiles({ 'policies/eng.autojoin.yaml': policy(DOMAINS.slice(0, 1)) });
    await runWith({ command: 'apply', 'max-removals': '5', ...deploy });
    const [status] = github.deployments.statuses;
    expect(status?.state).toBe('failure');
    expect(status?.description).toMatch(/^refused: refused by safety limit max-removals: 11 domains removed/u);
    expect(status?.description.length).toBeLessThan(140);
    expect(github.deployments.created[0]?.request.payload).toMatchObject({ result: 'refused', pullRequest: null, planSha256: outputs()['plan-sha256'] });
    expect(outputs()['exit-code']).toBe('3');
  });

  it('a failed apply (the service refuses the key) is recorded as failed', async () => {
    await runWith({ command: 'apply', 'api-key': 'wrong-key', ...deploy });
    expect(outputs()['exit-code']).toBe('1');
    expect(github.deployments.statuses[0]).toMatchObject({ state: 'failure', description: expect.stringMatching(/^failed: /u) });
    expect(github.deployments.statuses[0]?.description.length).toBeLessThan(140);
  });

  it('without deployments: write the apply stands and a warning names the permission', async () => {
    github.writeStatus = 403;
    await runWith({ command: 'apply', ...deploy });
    expect(core.setFailed).not.toHaveBeenCalled();
    expect(outputs()).toMatchObject({ 'exit-code': '0', 'deployment-id': '' });
    expect(core.warning).toHaveBeenCalledWith(expect.stringContaining('the job needs `permissions: deployments: write`'), { title: 'autojoin-sync: no deployment record' });
  });

  it('plan and validate make no deployment; nor does apply without the input', async () => {
    await runWith({ command: 'plan', ...deploy });
    await runWith({ command: 'apply' });
    expect(github.deployments.created).toEqual([]);
  });

  it('the fake answers as GitHub documents: 409 for a deployment whose required contexts fail, 422 for a long status description', async () => {
    github.deployments.failingContexts = ['ci/test'];
    const post = (path: string, body: unknown): Promise<Response> =>
      fetch(`${github.url}/repos/acme/policies/${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body) });
    expect((await post('deployments', { ref: SHA, environment: 'x' })).status).toBe(409);
    const created = await post('deployments', { ref: SHA, environment: 'x', required_contexts: [] });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect((await post(`deployments/${id}/statuses`, { state: 'failure', description: 'x'.repeat(141) })).status).toBe(422);
    expect((await post(`deployments/${id}/statuses`, { state: 'done' })).status).toBe(422);
  });
});
