/** action.yml and the example workflows agree with the code and with each other. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseInputs } from '../../src/action/inputs.js';
import { OUTPUT_NAMES } from '../../src/action/outputs.js';
import { REPO_ROOT } from './support/run-action.js';

interface ActionYml {
  runs: { using: string; main: string };
  branding: { icon: string; color: string };
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string }>;
}

interface Step {
  id?: string;
  uses?: string;
  with?: Record<string, unknown>;
}

interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  concurrency: { group: string; 'cancel-in-progress': boolean };
  jobs: Record<string, { steps: Step[]; needs?: string; environment?: string; outputs?: Record<string, string> }>;
}

const read = (path: string): unknown => parse(readFileSync(join(REPO_ROOT, path), 'utf8'));
const action = read('action.yml') as ActionYml;

function actionStep(workflow: Workflow): Step {
  const step = Object.values(workflow.jobs)
    .flatMap((job) => job.steps)
    .find((candidate) => candidate.uses?.startsWith('your-org/autojoin-sync@'));
  if (!step) throw new Error('no autojoin-sync step');
  return step;
}

describe('action.yml', () => {
  it('runs the committed bundle on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/action.js' });
    expect(action.branding.icon).toBeTruthy();
  });

  it('declares exactly the inputs the code reads, each described', () => {
    const read = new Set<string>();
    parseInputs((name) => {
      read.add(name);
      return action.inputs[name]?.default?.startsWith('${{') ? '' : (action.inputs[name]?.default ?? '');
    });
    expect(Object.keys(action.inputs).sort()).toEqual([...read].sort());
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description.length, name).toBeGreaterThan(20);
    expect(action.inputs['github-token']?.default).toBe('${{ github.token }}');
    expect(action.inputs.command?.default).toBe('plan');
  });

  it('declares the outputs the action sets, every one of them on every outcome (OUTPUT_NAMES)', () => {
    expect(Object.keys(action.outputs)).toEqual([...OUTPUT_NAMES]);
  });
});

describe('example workflows', () => {
  const workflows = {
    plan: read('examples/workflows/plan.yml') as Workflow,
    apply: read('examples/workflows/apply.yml') as Workflow,
    drift: read('examples/workflows/drift.yml') as Workflow,
  };

  it('use only declared inputs', () => {
    for (const [name, workflow] of Object.entries(workflows)) {
      for (const input of Object.keys(actionStep(workflow).with ?? {})) expect(action.inputs, `${name}: ${input}`).toHaveProperty([input]);
    }
  });

  it('plan: pull requests, may comment, cancels superseded runs', () => {
    const { plan } = workflows;
    expect(plan.on).toHaveProperty('pull_request');
    expect(plan.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(plan.concurrency).toEqual({ group: 'autojoin-plan-${{ github.event.pull_request.number }}', 'cancel-in-progress': true });
    expect(actionStep(plan).with).toMatchObject({ command: 'plan', 'api-key': '${{ secrets.AUTOJOIN_API_KEY }}', prune: true });
  });

  it('apply: push to main, never cancels a running apply, prunes from the whole history', () => {
    const { apply } = workflows;
    expect(apply.on).toMatchObject({ push: { branches: ['main'] } });
    expect(apply.concurrency['cancel-in-progress']).toBe(false);
    expect(actionStep(apply).with).toMatchObject({ command: 'apply', prune: true });
    expect(actionStep(apply).with).not.toHaveProperty('prune-from');
  });

  it('apply a reviewed plan: the plan job hands its sha256 to the apply job, which pins the artifact with it', () => {
    const reviewed = read('examples/workflows/apply-reviewed-plan.yml') as Workflow;
    const { plan, apply } = reviewed.jobs;
    const steps = (job: typeof plan) => (job?.steps ?? []).filter((step) => step.uses?.startsWith('your-org/autojoin-sync@'));
    for (const step of [...steps(plan), ...steps(apply)]) {
      for (const input of Object.keys(step.with ?? {})) expect(action.inputs, input).toHaveProperty([input]);
    }
    expect(plan?.outputs).toEqual({ 'plan-file': '${{ steps.plan.outputs.plan-file }}', 'plan-sha256': '${{ steps.plan.outputs.plan-sha256 }}' });
    expect(apply).toMatchObject({ needs: 'plan', environment: 'production' });
    expect(steps(apply)[0]?.with).toMatchObject({ command: 'apply', 'plan-sha256': '${{ needs.plan.outputs.plan-sha256 }}' });
    expect(String(steps(apply)[0]?.with?.['plan-file'])).toBe('autojoin-plan/${{ needs.plan.outputs.plan-file }}');
  });

  it('drift: nightly plan that fails on changes', () => {
    const { drift } = workflows;
    expect(drift.on).toHaveProperty('schedule');
    const steps = Object.values(drift.jobs).flatMap((job) => job.steps);
    expect(steps.find((step) => step.id === 'drift')?.with).toMatchObject({ command: 'plan', 'detailed-exitcode': true, prune: true });
    // Dates are enforced on the day: the grants that expired are revoked first, and only they.
    const expired = steps.find((step) => step.id === 'expired');
    expect(steps.indexOf(expired as Step)).toBeLessThan(steps.findIndex((step) => step.id === 'drift'));
    expect(expired?.with).toMatchObject({ command: 'apply', 'only-expired': true });
  });

  it('every example workflow checks out the whole history (pruning is on by default)', () => {
    const examples = readdirSync(join(REPO_ROOT, 'examples/workflows')).filter((file) => file.endsWith('.yml'));
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const file of examples) {
      const workflow = read(`examples/workflows/${file}`) as Workflow;
      for (const [name, job] of Object.entries(workflow.jobs)) {
        const checkout = job.steps.find((step) => step.uses?.startsWith('actions/checkout@'));
        if (checkout) expect(checkout, `${file}: ${name}`).toMatchObject({ with: { 'fetch-depth': 0 } });
      }
    }
  });
});
