/**
 * Issue 37 as GitHub runs the action: `node dist/action.js` with INPUT_* variables, an event
 * payload file, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, against the emulator and the fake
 * GitHub REST API on 127.0.0.1 (test/action/support/fake-github.ts, deployments in
 * fake-deployments.ts): a refused apply on push in the summary, with every output and a failure
 * deployment status; a successful one as a success status; validate's SARIF file.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { OUTPUT_NAMES } from '../../src/action/outputs.js';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.js';
import { pushPayload, runAction, type ActionRun } from './support/run-action.js';
import { githubSubsetProblems, sarifSchemaValidator } from '../support/sarif.js';

const API_KEY = 'ak-native-e2e-4b2f';
const TOKEN = 'ghs_native_e2e_token';
const SHA = 'feed'.padEnd(40, '1');
const DOMAINS = Array.from({ length: 12 }, (_, i) => `d${String(i).padStart(2, '0')}.example`);
const policy = (domains: readonly string[]): string => `scope: acme-eng\nscopeType: team\ncomponentId: cmp_8f2c\ndomains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

let emulator: Emulator;
let github: FakeGitHub;
let workspace: string;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  github = await startFakeGitHub('acme', 'policies', TOKEN);
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-native-e2e-'));
  await writeFiles({ 'policies/eng.autojoin.yaml': policy(DOMAINS) });
});

afterEach(async () => {
  await Promise.all([emulator.close(), github.close(), rm(workspace, { recursive: true, force: true })]);
});

async function writeFiles(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
}

function onPush(inputs: Record<string, string>): Promise<ActionRun> {
  return runAction({
    inputs: { 'base-url': emulator.url, 'api-key': API_KEY, 'github-token': TOKEN, path: 'policies', ...inputs },
    workspace,
    eventName: 'push',
    payload: pushPayload('0'.repeat(40), SHA),
    apiUrl: github.url,
    env: { GITHUB_SHA: SHA, GITHUB_ACTOR: 'octocat' },
  });
}

describe('dist/action.js on push', () => {
  it('a refused apply: the refusal in the job summary, every output in GITHUB_OUTPUT, a failure deployment status saying refused', async () => {
    github.deployments.commitPulls[SHA] = [{ number: 12, merge_commit_sha: SHA, merged_at: '2026-11-26T10:00:00Z', state: 'closed' }];
    expect((await onPush({ command: 'apply' })).code).toBe(0);
    await writeFiles({ 'policies/eng.autojoin.yaml': policy([]).replace('domains:\n', 'domains: []\n') });
    const run = await onPush({ command: 'apply', 'max-removals': '10', 'deployment-environment': 'autojoin' });
    expect(run.code).toBe(1);
    expect(Object.keys(run.outputs).sort()).toEqual([...OUTPUT_NAMES].sort());
    expect(run.outputs).toMatchObject({ 'exit-code': '3', 'has-changes': 'true', 'drift-count': '0', summary: expect.stringMatching(/^refused by safety limit max-removals: 12 domains removed/u) });
    expect(run.summary).toContain('| safety limit max-removals | 10 domains removed in one run | 12 domains removed (team/acme-eng) | input max-removals: 12 |');
    expect(run.summary.indexOf('Refused: nothing was written')).toBeLessThan(run.summary.indexOf('team/acme-eng</b>'));
    const [deployment] = github.deployments.created;
    expect(deployment?.request).toMatchObject({ ref: SHA, environment: 'autojoin', auto_merge: false, required_contexts: [] });
    expect(deployment?.request.payload).toMatchObject({ pullRequest: 12, actor: 'octocat', commit: SHA, result: 'refused', planSha256: run.outputs['plan-sha256'] });
    expect(github.deployments.statuses).toHaveLength(1);
    expect(github.deployments.statuses[0]).toMatchObject({ state: 'failure', log_url: 'https://github.com/acme/policies/actions/runs/4242' });
    expect(github.deployments.statuses[0]?.description).toMatch(/^refused: /u);
    expect(github.deployments.statuses[0]?.description.length).toBeLessThan(140);
    expect(run.outputs['deployment-id']).toBe(String(deployment?.id));
  });

  it('an apply that goes through is one deployment with one success status', async () => {
    const run = await onPush({ command: 'apply', 'deployment-environment': 'autojoin' });
    expect(run.code).toBe(0);
    expect(github.deployments.created).toHaveLength(1);
    expect(github.deployments.statuses.map((status) => status.state)).toEqual(['success']);
    expect(run.outputs['deployment-id']).toBe(String(github.deployments.created[0]?.id));
  });

  it('validate writes sarif-file: SARIF 2.1.0 valid against the OASIS schema and GitHub\'s subset', async () => {
    await writeFiles({ 'policies/bad.autojoin.yaml': 'scope: acme-bad\nscopeType: team\ncomponentId: cmp_8f2c\ndomains:\n  - gmail.com\n' });
    const run = await onPush({ command: 'validate', 'base-url': '', 'api-key': '' });
    expect(run.code).toBe(1);
    expect(Object.keys(run.outputs).sort()).toEqual([...OUTPUT_NAMES].sort());
    const log = JSON.parse(run.sarif ?? 'null') as unknown;
    expect(sarifSchemaValidator()(log)).toBe(true);
    expect(githubSubsetProblems(log)).toEqual([]);
    expect(run.sarif).toContain('"uri": "policies/bad.autojoin.yaml"');
  });
});
