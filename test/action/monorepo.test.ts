/**
 * The action over the three-team monorepo (test/support/monorepo.ts; design: "Many projects, one
 * run"): validate with `path: .` reads each team under its own project file; plan, apply and
 * apply of the reviewed plan go over every team in one job.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeMonorepo, MONOREPO_NOW } from '../support/monorepo.js';
import { commitAll } from '../support/git.js';
import { emptyData, startEmulator } from '../../src/emulator/index.js';

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
});
