/**
 * The action over the three-team monorepo (test/support/monorepo.ts; design: "Many projects, one
 * run"): validate with `path: .` reads each team under its own project file; a command that takes
 * one project at a time names itself and each project in the action's words (input path), never
 * the CLI's --project.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeMonorepo, MONOREPO_NOW } from '../support/monorepo.js';
import { commitAll } from '../support/git.js';

const core = await vi.hoisted(async () => (await import('../support/actions-core.js')).fakeActionsCore());
vi.mock('@actions/core', () => core);

const { run } = await import('../../src/action/main.js');

let workspace: string;

beforeEach(async () => {
  vi.clearAllMocks();
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-action-monorepo-'));
  writeMonorepo(workspace);
  commitAll(workspace, 'three teams');
  for (const name of ['AUTOJOIN_API_KEY', 'AUTOJOIN_ACCESS_TOKEN', 'AUTOJOIN_BASE_URL', 'VORTEX_API_KEY', 'AUTOJOIN_LOG', 'AUTOJOIN_LISTING', 'GITHUB_STEP_SUMMARY', 'GITHUB_EVENT_PATH']) {
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

describe('the action at the root of a monorepo of teams', () => {
  it('validate with path: . passes, each team under its own project file', async () => {
    givenInputs({ command: 'validate' });
    await run();
    expect(core.setFailed).not.toHaveBeenCalled();
    expect(outputs()['exit-code']).toBe('0');
  });

  it('plan with path: . names the command and each project as input path, never --project', async () => {
    givenInputs({ command: 'plan', 'base-url': 'http://127.0.0.1:9', 'api-key': 'ak-test' });
    await run();
    const [[message]] = core.setFailed.mock.calls as [[string]];
    expect(message).toContain('plan takes one project at a time, and the paths of this run hold 3');
    expect(message).toContain('run plan once per project: input path: teams/eng; input path: teams/ops; input path: teams/sales');
    expect(message).not.toContain('--project');
    expect(outputs()['exit-code']).toBe('1');
  });
});
