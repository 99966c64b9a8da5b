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
  if?: string;
  'continue-on-error'?: boolean;
  with?: Record<string, unknown>;
}
interface Workflow {
  name: string;
  on: Record<string, { paths?: string[] } | null>;
  permissions?: Record<string, string>;
  concurrency?: { group: string };
  jobs: Record<string, { steps: Step[]; outputs?: Record<string, string>; environment?: string; permissions?: Record<string, string> }>;
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

  it('docs/github-action.md names exactly the workflows in the folder; the README links that page and names none that is missing', () => {
    expect(linked(readFileSync(join(REPO_ROOT, 'docs/github-action.md'), 'utf8'))).toEqual(files);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain('](docs/github-action.md)');
    for (const file of linked(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'))) expect(files).toContain(file);
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

  // Issue 37: the workflows work for policies anywhere; the filters and `path:` go together.
  it('every workflow with paths filters reads exactly what they match: path . with the file-name filters, or DIR with DIR/**', () => {
    const byName = ['**/*.autojoin.yaml', '**/*.autojoin.yml', '**/autojoin.yaml', '**/autojoin.yml', '**/autojoin-sync.yaml'];
    for (const file of files) {
      const workflow = read(file);
      const filters = Object.values(workflow.on).flatMap((event) => [event?.paths ?? []]).filter((paths) => paths.length > 0);
      const steps = Object.values(workflow.jobs).flatMap((job) => job.steps.filter((step) => step.uses?.startsWith('your-org/autojoin-sync@')));
      for (const step of steps) {
        const paths = (typeof step.with?.path === 'string' ? step.with.path : '.').split('\n').map((line) => line.trim()).filter(Boolean);
        for (const paths_ of filters) {
          const wanted = paths.flatMap((path) => (path === '.' ? byName : [`${path.replace(/\/$/u, '')}/**`]));
          for (const filter of wanted) expect(paths_, `${file}: path ${paths.join(',')}`).toContain(filter);
          expect(paths_.some((filter) => filter.endsWith('autojoin-sync.yaml')), `${file}: the project file`).toBe(true);
        }
      }
      // …and says so: a comment names both, to be changed together.
      const comments = readFileSync(join(DIR, file), 'utf8').split('\n').filter((line) => line.trimStart().startsWith('#')).join('\n');
      if (filters.length > 0) expect(comments, file).toMatch(/`paths:`[^]*`path:`|`path:`[^]*`paths:`/u);
    }
  });

  it('one naming: each file is copied to .github/workflows/autojoin-FILE, named "autojoin …", in a concurrency group autojoin-…', () => {
    for (const file of files) {
      const text = readFileSync(join(DIR, file), 'utf8');
      expect(text.split('\n')[0], file).toMatch(new RegExp(`^# Copy to \\.github/workflows/autojoin-${file.replace('.', '\\.')}`, 'u'));
      expect(read(file).name, file).toMatch(/^autojoin /u);
      expect(read(file).concurrency?.group, file).toMatch(/^autojoin-/u);
    }
  });

  it('drift.yml (the adopt step) says GITHUB_TOKEN starts no workflow, and which setting lets it open pull requests', () => {
    const text = readFileSync(join(DIR, 'drift.yml'), 'utf8');
    expect(text).toContain('a pull request opened with the workflow\'s GITHUB_TOKEN starts no workflow');
    expect(text).toContain('GitHub App token');
    expect(text).toContain('"Allow GitHub Actions to create and approve pull requests" must be on');
    const adopt = read('drift.yml').jobs.drift?.steps.find((step) => step.with?.command === 'adopt');
    expect(adopt?.with?.['github-token']).toBe('${{ secrets.AUTOJOIN_ADOPT_TOKEN || github.token }}');
  });

  it('validate.yml uploads SARIF with security-events: write, after a failed validation too, never failing on the upload', () => {
    const workflow = read('validate.yml');
    expect(workflow.permissions).toEqual({ contents: 'read', 'security-events': 'write' });
    const steps = workflow.jobs.validate?.steps ?? [];
    const validate = steps.find((step) => step.with?.command === 'validate');
    const upload = steps.find((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'));
    expect(upload?.with?.sarif_file).toBe(`\${{ steps.${validate?.id ?? ''}.outputs.sarif-file }}`);
    expect(upload?.['continue-on-error']).toBe(true);
    expect(upload?.if).toMatch(/^\$\{\{ always\(\) && /u);
    expect(upload?.if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
  });

  it('a job records its applies once: deployment-environment (with deployments: write) or a job-level environment, not both', () => {
    let recorded = 0;
    for (const file of files) {
      const workflow = read(file);
      for (const [name, job] of Object.entries(workflow.jobs)) {
        const step = job.steps.find((one) => one.with?.['deployment-environment'] !== undefined);
        if (!step) continue;
        recorded += 1;
        expect(job.environment, `${file} job ${name}`).toBeUndefined();
        expect({ ...workflow.permissions, ...job.permissions }.deployments, `${file} job ${name}`).toBe('write');
      }
    }
    expect(recorded).toBeGreaterThan(0);
  });
});
