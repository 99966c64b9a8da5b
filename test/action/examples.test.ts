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

/**
 * Issue 51: every third-party action in the project's workflows, the examples and the docs' snippets
 * is pinned to the full commit SHA of a release tag, the version in a comment beside it, and none runs
 * on Node 20. The table is what was read in each action's repository at that tag (the commit the tag
 * names, and `runs.using` of its action.yml); a new pin belongs here once someone has read it.
 * Not pinned, as docs/github-action.md says: this action itself (`your-org/autojoin-sync@v1`, the name
 * users replace) and local actions (`./…`).
 */
const PINNED: Record<string, { version: string; sha: string; runs: string }> = {
  'actions/checkout': { version: 'v7.0.1', sha: '3d3c42e5aac5ba805825da76410c181273ba90b1', runs: 'node24' },
  'actions/setup-node': { version: 'v7.0.0', sha: '820762786026740c76f36085b0efc47a31fe5020', runs: 'node24' },
  'actions/upload-artifact': { version: 'v7.0.0', sha: 'bbbca2ddaa5d8feaa63e36b76fdaad77386f024f', runs: 'node24' },
  'actions/download-artifact': { version: 'v8.0.1', sha: '3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c', runs: 'node24' },
  'actions/github-script': { version: 'v8.0.0', sha: 'ed597411d8f924073f98dfc5c65a23a2325f34cd', runs: 'node24' },
  'actions/attest': { version: 'v4.2.2', sha: '1e69f48acb82d1966a394da916b4c1698aa569d6', runs: 'node24' },
  'github/codeql-action/upload-sarif': { version: 'v4.36.2', sha: '8aad20d150bbac5944a9f9d289da16a4b0d87c1e', runs: 'node24' },
};
const NOT_PINNED = /^(\.\/|your-org\/autojoin-sync@)/u;
const PIN = /^([\w.-]+\/[\w.-]+(?:\/[\w./-]+)?)@([0-9a-f]{40}) # (v\d+\.\d+\.\d+)$/u;

/** Every `uses:` line of a workflow file or a markdown page's snippets: the text after `uses:`, comment included. */
function usesLines(file: string): { line: number; text: string }[] {
  return readFileSync(join(REPO_ROOT, file), 'utf8').split('\n').flatMap((text, index) => {
    const match = /^\s*(?:-\s+)?uses:\s+(.+?)\s*$/u.exec(text);
    return match ? [{ line: index + 1, text: match[1] as string }] : [];
  });
}
const workflowFiles = (dir: string): string[] => readdirSync(join(REPO_ROOT, dir)).filter((file) => /\.ya?ml$/u.test(file)).map((file) => `${dir}/${file}`);
const PINNED_FILES = [...workflowFiles('.github/workflows'), ...workflowFiles('examples/workflows'), 'docs/github-action.md'];

describe('pinned actions (issue 51)', () => {
  it('every third-party uses: is owner/repo@<40-hex SHA> # vX.Y.Z, the SHA the table read at that tag', () => {
    let pins = 0;
    for (const file of PINNED_FILES) {
      for (const { line, text } of usesLines(file)) {
        if (NOT_PINNED.test(text)) continue;
        const match = PIN.exec(text);
        expect(match, `${file}:${line}: ${text}`).not.toBeNull();
        const [, action = '', sha, version] = match ?? [];
        expect(PINNED[action], `${file}:${line}: ${action} is not in the table of pins read`).toBeDefined();
        expect({ sha, version }, `${file}:${line}`).toEqual({ sha: PINNED[action]?.sha, version: PINNED[action]?.version });
        pins += 1;
      }
    }
    expect(pins).toBeGreaterThan(20);
  });

  it('the parsed workflows agree: every step or job uses: is pinned or one of the documented exceptions', () => {
    for (const file of PINNED_FILES.filter((path) => path.endsWith('.yml'))) {
      const workflow = parse(readFileSync(join(REPO_ROOT, file), 'utf8')) as { jobs: Record<string, { uses?: string; steps?: Step[] }> };
      for (const [name, job] of Object.entries(workflow.jobs)) {
        for (const uses of [job.uses, ...(job.steps ?? []).map((step) => step.uses)]) {
          if (uses === undefined || NOT_PINNED.test(uses)) continue;
          expect(uses, `${file} job ${name}`).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/u);
        }
      }
    }
  });

  it('no pinned action runs on Node 20, and every action in the table is used', () => {
    const used = new Set(PINNED_FILES.flatMap((file) => usesLines(file).map(({ text }) => PIN.exec(text)?.[1])));
    for (const [action, pin] of Object.entries(PINNED)) {
      expect(pin.runs, action).not.toBe('node20');
      expect(['node24', 'composite', 'docker'], action).toContain(pin.runs);
      expect(used, action).toContain(action);
    }
  });

  it('the docs show the action itself pinned the same way, and say why', () => {
    const page = readFileSync(join(REPO_ROOT, 'docs/github-action.md'), 'utf8');
    expect(page).toMatch(/uses: your-org\/autojoin-sync@<[^>]*SHA[^>]*> # v1\.\d+\.\d+/u);
    expect(page).toContain('gh attestation verify');
  });
});

describe('the release workflow and Dependabot (issue 51)', () => {
  interface Job { permissions?: Record<string, string>; steps: (Step & { run?: string; env?: Record<string, string> })[] }
  const release = parse(readFileSync(join(REPO_ROOT, '.github/workflows/release.yml'), 'utf8')) as { permissions: Record<string, string>; jobs: Record<string, Job> };
  const text = readFileSync(join(REPO_ROOT, '.github/workflows/release.yml'), 'utf8');
  const runs = (job: Job | undefined): string => (job?.steps ?? []).map((step) => step.run ?? '').join('\n');

  it('publishes by trusted publishing: id-token: write on the publishing job only, npm 11.5.1 or later, --provenance, no npm token', () => {
    expect(release.permissions).toEqual({ contents: 'read' });
    const publishing = Object.entries(release.jobs).filter(([, job]) => runs(job).includes('npm publish'));
    expect(publishing.map(([name]) => name)).toEqual(['publish']);
    const publish = release.jobs.publish;
    expect(publish?.permissions).toEqual({ contents: 'write', 'id-token': 'write', attestations: 'write' });
    for (const [name, job] of Object.entries(release.jobs)) if (name !== 'publish') expect(job.permissions?.['id-token'], name).toBeUndefined();
    expect(runs(publish)).toMatch(/npm publish [^\n]*--provenance/u);
    expect(runs(publish)).toContain('npm@^11.5.1');
    for (const secret of ['NPM_TOKEN', 'NODE_AUTH_TOKEN', 'secrets.']) expect(text).not.toContain(secret);
  });

  it('attests the tarball and dist/action.js, with the SBOM, and releases a draft that is published once its files are attached', () => {
    const publish = release.jobs.publish;
    const attests = (publish?.steps ?? []).filter((step) => step.uses?.startsWith('actions/attest@'));
    expect(attests.length).toBe(2);
    for (const step of attests) expect(String(step.with?.['subject-path']).split('\n').filter(Boolean)).toEqual(['${{ needs.build.outputs.tarball }}', 'dist/action.js']);
    expect(attests.some((step) => step.with?.['sbom-path'] === '${{ needs.build.outputs.sbom }}')).toBe(true);
    expect(runs(release.jobs.build)).toContain('node scripts/sbom.mjs --out');
    expect(runs(release.jobs.build)).toContain('npm run check-dist');
    const script = runs(publish);
    const order = ['gh release create "$GITHUB_REF_NAME" --draft', 'gh release upload "$GITHUB_REF_NAME" "$TARBALL" "$SBOM" dist/action.js', 'gh release edit "$GITHUB_REF_NAME" --draft=false'];
    const at = order.map((command) => script.indexOf(command));
    expect(at.every((index) => index >= 0), JSON.stringify(at)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('dependabot.yml keeps github-actions (the workflows and the examples) and npm current', () => {
    const config = parse(readFileSync(join(REPO_ROOT, '.github/dependabot.yml'), 'utf8')) as { version: number; updates: { 'package-ecosystem': string; directory?: string; directories?: string[] }[] };
    expect(config.version).toBe(2);
    const dirs = (ecosystem: string): string[] => config.updates.filter((update) => update['package-ecosystem'] === ecosystem).flatMap((update) => update.directories ?? [update.directory ?? '']);
    expect(dirs('github-actions').sort()).toEqual(['/', '/examples/workflows']);
    expect(dirs('npm')).toEqual(['/']);
  });
});
