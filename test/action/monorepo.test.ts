/**
 * The action over the three-team monorepo (test/support/monorepo.ts; design: "Many projects, one
 * run"): validate with `path: .` reads each team under its own project file; plan, apply and
 * apply of the reviewed plan go over every team in one job.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeMonorepo, MONOREPO_NOW } from '../support/monorepo.js';
import { commitAll, git } from '../support/git.js';
import { defined } from '../support/defined.js';
import { emptyData, startEmulator } from '../../src/emulator/index.js';
import { startFakeGitHub } from './support/fake-github.js';
import { pullRequestPayload } from './support/run-action.js';

const core = await vi.hoisted(async () => (await import('../support/actions-core.js')).fakeActionsCore());
vi.mock('@actions/core', () => core);

const { run } = await import('../../src/action/main.js');

/** The plan, apply and reviewed-plan flows over three projects: more than the default 30 s on a loaded machine. */
const SLOW = 120_000;

let workspace: string;

beforeEach(async () => {
  vi.clearAllMocks();
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-action-monorepo-'));
  writeMonorepo(workspace);
  commitAll(workspace, 'three teams');
  for (const name of ['AUTOJOIN_API_KEY', 'AUTOJOIN_ACCESS_TOKEN', 'AUTOJOIN_BASE_URL', 'VORTEX_API_KEY', 'AUTOJOIN_LOG', 'AUTOJOIN_LISTING', 'GITHUB_STEP_SUMMARY', 'GITHUB_EVENT_PATH', 'GITHUB_REPOSITORY', 'GITHUB_API_URL']) {
    vi.stubEnv(name, undefined);
  }
  vi.stubEnv('AUTOJOIN_NOW', MONOREPO_NOW);
  vi.stubEnv('GITHUB_WORKSPACE', workspace);
  vi.stubEnv('RUNNER_TEMP', join(workspace, 'tmp'));
  vi.stubEnv('GITHUB_ACTION', 'plan-step');
  vi.stubEnv('GITHUB_EVENT_NAME', 'push');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(workspace, { recursive: true, force: true });
});

function givenInputs(inputs: Record<string, string>): void {
  const all: Record<string, string> = { path: '.', comment: 'false', ...inputs };
  core.getInput.mockImplementation((name) => all[name] ?? '');
}

const outputs = (): Record<string, string> => Object.fromEntries(core.setOutput.mock.calls);

/** A pull request on the monorepo that changes only the sales team's policy file (its base: the fixture's commit). */
async function salesPullRequest(apiUrl: string): Promise<void> {
  const base = git(workspace, 'rev-parse', 'HEAD');
  await writeFile(join(workspace, 'teams/sales/sales.autojoin.yaml'), ['scope: acme-sales', 'domains:', '  - acme-sales.com', '  - acme-sales.io', ''].join('\n'));
  git(workspace, 'commit', '-q', '-am', 'sales adds a domain');
  const event = join(workspace, 'tmp', 'event.json');
  await mkdir(dirname(event), { recursive: true });
  await writeFile(event, JSON.stringify({ ...(pullRequestPayload(7) as object), pull_request: { ...(pullRequestPayload(7) as { pull_request: object }).pull_request, base: { sha: base } } }));
  vi.stubEnv('GITHUB_EVENT_PATH', event);
  vi.stubEnv('GITHUB_EVENT_NAME', 'pull_request');
  vi.stubEnv('GITHUB_REPOSITORY', 'acme/policies');
  vi.stubEnv('GITHUB_API_URL', apiUrl);
}

describe('the action at the root of a monorepo of teams', () => {
  it('validate with path: . passes, each team under its own project file', async () => {
    givenInputs({ command: 'validate' });
    await run();
    expect(core.setFailed).not.toHaveBeenCalled();
    expect(outputs()['exit-code']).toBe('0');
  }, SLOW);

  it('plan, apply and the reviewed plan with path: . go over every team: one job summary, one plan-sha256, a section per project', async () => {
    const emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: 'ak-test' });
    try {
      vi.stubEnv('GITHUB_STEP_SUMMARY', join(workspace, 'summary.md'));
      givenInputs({ command: 'plan', 'base-url': emulator.url, 'api-key': 'ak-test' });
      await run();
      expect(core.setFailed).not.toHaveBeenCalled();
      const planned = outputs();
      expect(planned['plan-sha256']).toMatch(/^[0-9a-f]{64}$/u);
      // One job summary, with a section per project.
      expect(core.summary.write).toHaveBeenCalledTimes(1);
      const text = (core.summary.addRaw.mock.calls as [string][]).map(([raw]) => raw).join('');
      for (const team of ['eng', 'ops', 'sales']) expect(text.split(`#### teams/${team}/autojoin-sync.yaml, owner ${team}`)).toHaveLength(2);
      const planFile = planned['plan-json'] ?? '';
      const document = JSON.parse(await readFile(planFile, 'utf8')) as { formatVersion: number; projects: { name: string }[] };
      expect(document.formatVersion).toBe(5);
      expect(document.projects.map((one) => one.name)).toEqual(['teams/eng/autojoin-sync.yaml', 'teams/ops/autojoin-sync.yaml', 'teams/sales/autojoin-sync.yaml']);

      vi.clearAllMocks();
      givenInputs({ command: 'apply', 'base-url': emulator.url, 'api-key': 'ak-test', 'plan-file': planFile, 'plan-sha256': planned['plan-sha256'] ?? '' });
      await run();
      expect(core.setFailed).not.toHaveBeenCalled();
      expect(outputs()['exit-code']).toBe('0');
      expect(Object.keys(emulator.data().scopes).sort()).toEqual(['team/acme-eng', 'team/acme-platform', 'team/acme-sales', 'workspace/ops-oncall']);

      vi.clearAllMocks();
      givenInputs({ command: 'apply', 'base-url': emulator.url, 'api-key': 'ak-test' });
      await run();
      expect(core.setFailed).not.toHaveBeenCalled();
      expect(outputs()['exit-code']).toBe('0');
    } finally {
      await emulator.close();
    }
  }, SLOW);

  it('in a pull request: one comment, a section per project, the projects the pull request changed first', async () => {
    const emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: 'ak-test' });
    const github = await startFakeGitHub('acme', 'policies', 'ghs_monorepo');
    try {
      await salesPullRequest(github.url);
      givenInputs({ command: 'plan', 'base-url': emulator.url, 'api-key': 'ak-test', comment: 'true', 'github-token': 'ghs_monorepo' });
      await run();
      expect(core.setFailed).not.toHaveBeenCalled();
      expect(github.comments).toHaveLength(1);
      const headings = (defined(github.comments[0]).body.match(/^#### teams\/\w+/gmu) ?? []).map((heading) => heading.slice('#### '.length));
      // Every team has creates; sales, the one the pull request changed, comes first, then the others by path.
      expect(headings).toEqual(['teams/sales', 'teams/eng', 'teams/ops']);
    } finally {
      await Promise.all([emulator.close(), github.close()]);
    }
  }, SLOW);
});
