/**
 * examples/workflows/drift.yml's adopt step end to end, as GitHub runs it: the committed bundle
 * dist/action.js with the workflow's own inputs, against the emulator (an admin's edit made as
 * the widget makes it), a bare git repository on disk as `origin`, and the fake GitHub REST API.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.js';
import { REPO_ROOT, runAction, type ActionRun } from './support/run-action.js';
import { commitAll, git } from '../support/git.js';

const API_KEY = 'ak-adopt-test-NEVER-SHOWN-51c2';
const TOKEN = 'ghs_adoptWorkflowToken0123456789';
const ENG = '# engineering\nscope: acme-eng\nscopeType: team\ncomponentId: cmp_1\ndomains:\n  - acme.com   # the main one\n  - acme.co.uk\n';

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, unknown>;
}

const workflow = parse(await readFile(join(REPO_ROOT, 'examples/workflows/drift.yml'), 'utf8')) as { jobs: { drift: { steps: Step[] } } };
const planStep = workflow.jobs.drift.steps.find((step) => step.id === 'drift') as Step;
const adoptStep = workflow.jobs.drift.steps.find((step) => step.id === 'adopt') as Step;

let emulator: Emulator;
let github: FakeGitHub;
let workspace: string;
let remote: string;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  github = await startFakeGitHub('acme', 'policies', TOKEN);
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-adopt-'));
  remote = await mkdtemp(join(tmpdir(), 'autojoin-adopt-remote-'));
  git(remote, 'init', '-q', '--bare');
  await writeFile(join(workspace, 'eng.autojoin.yaml'), ENG);
  commitAll(workspace);
  git(workspace, 'remote', 'add', 'origin', remote);
  git(workspace, 'push', '-q', 'origin', 'main');
});

afterEach(async () => {
  await Promise.all([emulator.close(), github.close(), rm(workspace, { recursive: true, force: true }), rm(remote, { recursive: true, force: true })]);
});

/** A step of the workflow with its own inputs (secrets and vars replaced by the test's), on a schedule. */
function runStep(step: Step, extra: Record<string, string> = {}, env: Record<string, string> = {}): Promise<ActionRun> {
  const inputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(step.with ?? {})) inputs[name] = String(value);
  Object.assign(inputs, { path: '.', 'base-url': emulator.url, 'api-key': API_KEY, 'github-token': TOKEN }, extra);
  const payload = { schedule: '17 3 * * *', repository: { default_branch: 'main' } };
  return runAction({ inputs, workspace, eventName: 'schedule', payload, apiUrl: github.url, env });
}

async function adminSets(domains: string[]): Promise<void> {
  const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: JSON.stringify({ domains, scope: 'acme-eng', scopeType: 'team', componentId: 'cmp_1' }),
  });
  expect(response.status).toBe(200);
}

describe('the drift workflow\'s adopt step', () => {
  it('turns an admin\'s edit into one pull request from autojoin-sync/adopt, updated on the next run', async () => {
    const applied = await runStep(planStep, { command: 'apply', 'detailed-exitcode': 'false' });
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    await adminSets(['acme.com', 'partner.example']);

    const drift = await runStep(planStep);
    expect(drift.outputs['drift-count']).toBe('1');
    expect(adoptStep.if).toContain("steps.drift.outputs.drift-count != '0'");
    const adopt = await runStep(adoptStep);
    expect(adopt.code, adopt.stdout + adopt.stderr).toBe(0);
    expect(adopt.outputs['drift-count']).toBe('1');
    expect(github.pulls).toHaveLength(1);
    expect(adopt.outputs['pull-request-url']).toBe(github.pulls[0]?.html_url);
    expect(github.pulls[0]).toMatchObject({ head: 'autojoin-sync/adopt', base: 'main' });
    expect(github.pulls[0]?.body).toContain('| `team/acme-eng` | +`partner.example` -`acme.co.uk` | `20');
    const edited = git(remote, 'show', 'autojoin-sync/adopt:eng.autojoin.yaml');
    expect(edited).toBe('# engineering\nscope: acme-eng\nscopeType: team\ncomponentId: cmp_1\ndomains:\n  - acme.com   # the main one\n  - partner.example');
    expect(await readFile(join(workspace, 'eng.autojoin.yaml'), 'utf8')).toBe(ENG); // the checkout is as it was

    await adminSets(['acme.com', 'partner.example', 'third.example']);
    const again = await runStep(adoptStep);
    expect(again.code).toBe(0);
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]?.body).toContain('+`partner.example` +`third.example` -`acme.co.uk`');
    expect(JSON.stringify(github.requests)).not.toContain(API_KEY);
  });

  it('opens nothing when nothing drifted', async () => {
    expect((await runStep(planStep, { command: 'apply', 'detailed-exitcode': 'false' })).code).toBe(0);
    const adopt = await runStep(adoptStep);
    expect(adopt.code).toBe(0);
    expect(adopt.outputs['drift-count']).toBe('0');
    expect(github.pulls).toHaveLength(0);
  });

  it('after an expiry under drift: keep, revokes the grant and opens nothing (issue 33: it failed with "git -c failed: unknown error")', async () => {
    const expiring = ENG.replace('  - acme.co.uk\n', '  - acme.co.uk\n  - {domain: contractor.example, expires: 2026-03-10}\n');
    await writeFile(join(workspace, 'eng.autojoin.yaml'), expiring);
    await writeFile(join(workspace, 'autojoin-sync.yaml'), 'drift: keep\n');
    git(workspace, 'add', '-A');
    git(workspace, 'commit', '-q', '-m', 'keep, and a grant');
    const applied = await runStep(planStep, { command: 'apply', 'detailed-exitcode': 'false' }, { AUTOJOIN_NOW: '2026-03-01' });
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    const adopt = await runStep(adoptStep, {}, { AUTOJOIN_NOW: '2026-03-20' });
    expect(adopt.code, adopt.stderr + adopt.stdout).toBe(0);
    expect(adopt.outputs['drift-count']).toBe('0');
    expect(github.pulls).toHaveLength(0);
    expect(await readFile(join(workspace, 'eng.autojoin.yaml'), 'utf8')).toBe(expiring);
    const revoked = await runStep(planStep, { command: 'apply', 'only-expired': 'true', 'detailed-exitcode': 'false' }, { AUTOJOIN_NOW: '2026-03-20' });
    expect(revoked.code, revoked.stderr + revoked.stdout).toBe(0);
    expect(emulator.data().scopes['team/acme-eng']?.autojoin?.domains.map((d) => d.domain).sort()).toEqual(['acme.co.uk', 'acme.com']);
  });
});
