/**
 * The example workflows agree with one another and with the docs: docs/github-action.md names
 * exactly the files in examples/workflows/ (the README only links that page, one copy only), every workflow that prunes checks out the
 * whole history, the reviewed-plan workflow finds its plan through the action's outputs, and the
 * project's own release workflow is not among the examples.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from './support/run-action.js';

interface Step {
  uses?: string;
  id?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: Record<string, { steps: Step[]; outputs?: Record<string, string> }>;
}

const DIR = join(REPO_ROOT, 'examples/workflows');
const files = readdirSync(DIR).filter((file) => file.endsWith('.yml')).sort();
const read = (file: string): Workflow => parse(readFileSync(join(DIR, file), 'utf8')) as Workflow;
const linked = (doc: string): string[] => [...new Set([...doc.matchAll(/examples\/workflows\/([\w-]+\.yml)/g)].map((m) => m[1] as string))].sort();

describe('examples/workflows', () => {
  it('holds only examples for users: the release workflow lives in .github/workflows', () => {
    expect(files).not.toContain('release.yml');
    expect(existsSync(join(REPO_ROOT, '.github/workflows/release.yml'))).toBe(true);
    expect(readFileSync(join(REPO_ROOT, 'docs/RELEASING.md'), 'utf8')).not.toContain('examples/workflows/release.yml');
  });

  it('docs/github-action.md names exactly the workflows in the folder; the README links that page', () => {
    expect(linked(readFileSync(join(REPO_ROOT, 'docs/github-action.md'), 'utf8'))).toEqual(files);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain('](docs/github-action.md)');
  });

  it('every workflow that prunes checks out the whole history (fetch-depth: 0)', () => {
    for (const file of files) {
      for (const [name, job] of Object.entries(read(file).jobs)) {
        const prunes = job.steps.some((step) => step.uses?.includes('autojoin-sync') && String(step.with?.prune) === 'true');
        if (!prunes) continue;
        const checkout = job.steps.find((step) => step.uses?.startsWith('actions/checkout'));
        expect(String(checkout?.with?.['fetch-depth']), `${file} job ${name}`).toBe('0');
      }
    }
  });

  it('apply-reviewed-plan.yml prunes and applies the file the plan job names in its outputs, pinned', () => {
    const { jobs } = read('apply-reviewed-plan.yml');
    expect(jobs.plan?.outputs).toEqual({ 'plan-file': '${{ steps.plan.outputs.plan-file }}', 'plan-sha256': '${{ steps.plan.outputs.plan-sha256 }}' });
    expect(jobs.plan?.steps.find((step) => step.id === 'plan')?.with?.prune).toBe(true);
    const apply = jobs.apply?.steps.find((step) => step.with?.command === 'apply');
    expect(apply?.with?.['plan-file']).toBe('autojoin-plan/${{ needs.plan.outputs.plan-file }}');
    expect(apply?.with?.['plan-sha256']).toBe('${{ needs.plan.outputs.plan-sha256 }}');
  });
});
