/**
 * examples/workflows/sharded.yml end to end, as GitHub runs it: each matrix job is its own
 * `node dist/action.js` process with its own GITHUB_OUTPUT and RUNNER_TEMP, the workflow's own
 * inputs (matrix values, secrets and job outputs substituted), files passed between jobs as
 * artifacts are (copied into the next job's workspace), one emulator, a fake GitHub REST API.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { shardIndexOf } from '../../src/plan/shard.js';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.js';
import { pullRequestPayload, pushPayload, REPO_ROOT, runAction, type ActionRun } from './support/run-action.js';
import { commitAll } from '../support/git.js';

const API_KEY = 'ak-sharded-test-NEVER-SHOWN-5d1c';
const TOKEN = 'ghs_shardedWorkflowToken0123456789';
const SCOPES = Array.from({ length: 12 }, (_, index) => `s${index}`);

interface Step {
  id?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string;
  strategy?: { matrix: { shard: number[] } };
  outputs?: Record<string, string>;
  steps: Step[];
}

const workflow = parse(await readFile(join(REPO_ROOT, 'examples/workflows/sharded.yml'), 'utf8')) as { jobs: Record<'plan' | 'merge' | 'apply', Job> };
const actionStep = (job: Job): Step => job.steps.find((step) => step.uses?.startsWith('your-org/autojoin-sync@')) as Step;

let emulator: Emulator;
let github: FakeGitHub;
let workspace: string;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  github = await startFakeGitHub('acme', 'policies', TOKEN);
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-sharded-'));
  await mkdir(join(workspace, 'policies'));
  for (const scope of SCOPES) {
    await writeFile(join(workspace, `policies/${scope}.autojoin.yaml`), `scope: ${scope}\nscopeType: team\ncomponentId: cmp_1\ndomains:\n  - ${scope}.example\n`);
  }
  commitAll(workspace);
});

afterEach(async () => {
  await Promise.all([emulator.close(), github.close(), rm(workspace, { recursive: true, force: true })]);
});

/** The workflow step's inputs with `${{ … }}` replaced as GitHub would for this job. */
function inputsOf(step: Step, values: Record<string, string>): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(step.with ?? {})) {
    inputs[name] = String(value).replace(/\$\{\{ ([^}]+) \}\}/g, (_, expression: string) => {
      const found = values[expression.trim()];
      if (found === undefined) throw new Error(`the test does not know ${expression}`);
      return found;
    });
  }
  return inputs;
}

const secrets = (): Record<string, string> => ({ 'vars.AUTOJOIN_BASE_URL': emulator.url, 'secrets.AUTOJOIN_API_KEY': API_KEY });

async function planMatrix(eventName: string, payload: unknown, artifacts: string): Promise<ActionRun[]> {
  const runs: ActionRun[] = [];
  for (const shard of workflow.jobs.plan.strategy?.matrix.shard ?? []) {
    const run = await runAction({ inputs: { ...inputsOf(actionStep(workflow.jobs.plan), { ...secrets(), 'matrix.shard': String(shard) }), 'github-token': TOKEN }, workspace, eventName, payload, apiUrl: github.url });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    // upload-artifact, then download-artifact with merge-multiple into parts/
    await writeFile(join(artifacts, basename(run.outputs['plan-json'] ?? 'missing')), run.planJson ?? '');
    runs.push(run);
  }
  return runs;
}

async function mergeJob(eventName: string, payload: unknown): Promise<ActionRun> {
  const run = await runAction({ inputs: { ...inputsOf(actionStep(workflow.jobs.merge), secrets()), 'github-token': TOKEN }, workspace, eventName, payload, apiUrl: github.url });
  expect(run.code, run.stderr + run.stdout).toBe(0);
  return run;
}

describe('examples/workflows/sharded.yml', () => {
  it('divides concurrency across the shards and pins the apply matrix to the merged plan', () => {
    const plan = actionStep(workflow.jobs.plan).with ?? {};
    const apply = actionStep(workflow.jobs.apply).with ?? {};
    const shards = workflow.jobs.plan.strategy?.matrix.shard.length ?? 0;
    expect(plan.shard).toBe(`\${{ matrix.shard }}/${shards}`);
    expect(apply.shard).toBe(`\${{ matrix.shard }}/${shards}`);
    expect(Number(plan.concurrency) * shards).toBe(64);
    expect(apply['plan-sha256']).toBe('${{ needs.merge.outputs.plan-sha256 }}');
    expect(workflow.jobs.apply.needs).toBe('merge');
  });

  it('in a pull request: the shard jobs post nothing and set an empty plan-sha256; the merge job posts the one comment and pins the plan', async () => {
    const parts = join(workspace, 'parts');
    await mkdir(parts);
    const payload = pullRequestPayload(7);
    const runs = await planMatrix('pull_request', payload, parts);
    for (const run of runs) {
      expect(run.outputs['plan-sha256']).toBe('');
      expect(run.outputs['has-changes']).toBe('true');
    }
    expect(github.comments).toHaveLength(0);
    const merged = await mergeJob('pull_request', payload);
    expect(merged.outputs['plan-sha256']).toMatch(/^[0-9a-f]{64}$/);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]?.body).toContain(`${SCOPES.length} to create`);
    expect(merged.summary).toContain(`${SCOPES.length} to create`);
  });

  it('on push: plan matrix → merge → apply matrix writes exactly the merged plan, each job its own shard', async () => {
    const parts = join(workspace, 'parts');
    await mkdir(parts);
    const payload = pushPayload('0'.repeat(40), '1'.repeat(40));
    await planMatrix('push', payload, parts);
    const merged = await mergeJob('push', payload);
    const artifact = join(workspace, 'autojoin-plan');
    await mkdir(artifact);
    await writeFile(join(artifact, merged.outputs['plan-file'] ?? ''), merged.planJson ?? ''); // upload-artifact, download-artifact
    const jobOutputs = { 'needs.merge.outputs.plan-file': merged.outputs['plan-file'] ?? '', 'needs.merge.outputs.plan-sha256': merged.outputs['plan-sha256'] ?? '' };
    for (const shard of workflow.jobs.apply.strategy?.matrix.shard ?? []) {
      const before = emulator.requests.filter((request) => request.method === 'POST').length;
      const inputs = inputsOf(actionStep(workflow.jobs.apply), { ...secrets(), ...jobOutputs, 'matrix.shard': String(shard) });
      const run = await runAction({ inputs, workspace, eventName: 'push', payload, apiUrl: github.url });
      expect(run.code, run.stderr + run.stdout).toBe(0);
      const mine = SCOPES.filter((scope) => shardIndexOf(`team/${scope}`, 4) === shard);
      expect(emulator.requests.filter((request) => request.method === 'POST').length - before).toBe(mine.length);
      for (const scope of mine) expect(run.summary).toContain(`team/${scope}`);
    }
    for (const scope of SCOPES) expect(emulator.data().scopes[`team/${scope}`]?.autojoin?.domains.map((entry) => entry.domain)).toEqual([`${scope}.example`]);
  });

  it('refuses a shard plan applied alone and apply with shard but no plan-file, writing nothing', async () => {
    const parts = join(workspace, 'parts');
    await mkdir(parts);
    const payload = pushPayload('0'.repeat(40), '1'.repeat(40));
    const [first] = await planMatrix('push', payload, parts);
    const partFile = join('parts', basename(first?.outputs['plan-json'] ?? ''));
    const digest = createHash('sha256').update(await readFile(join(workspace, partFile))).digest('hex');
    const alone = await runAction({ inputs: { command: 'apply', path: 'policies', 'base-url': emulator.url, 'api-key': API_KEY, 'plan-file': partFile, 'plan-sha256': digest }, workspace, eventName: 'push', payload, apiUrl: github.url });
    expect(alone.code).toBe(1);
    expect(alone.stdout).toContain('is shard 1/4 alone, never applied on its own');
    const unplanned = await runAction({ inputs: { command: 'apply', path: 'policies', shard: '1/4', 'base-url': emulator.url, 'api-key': API_KEY }, workspace, eventName: 'push', payload, apiUrl: github.url });
    expect(unplanned.code).toBe(1);
    expect(unplanned.stdout).toContain('give plan-file and plan-sha256');
    expect(emulator.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });
});
