/**
 * The action's apply with plan-file reads the saved plan once (issue 32: one run request): the
 * run's context is rebuilt from it and it is the plan applied. Before, the settings read it and
 * the apply step read it again. `run()` in-process, `@actions/core` replaced by spies (as
 * main.test.ts does), readSavedPlan counted.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';

const core = await vi.hoisted(async () => (await import('../support/actions-core.js')).fakeActionsCore());
vi.mock('@actions/core', () => core);

const reads = vi.hoisted(() => ({ files: [] as string[] }));
vi.mock('../../src/reconcile/saved-plan.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/reconcile/saved-plan.js')>();
  return {
    ...real,
    readSavedPlan: (file: string, sha256?: string) => {
      reads.files.push(file);
      return real.readSavedPlan(file, sha256);
    },
  };
});

const { run } = await import('../../src/action/main.js');

const API_KEY = 'ak-saved-once-7c21d9';
const ENG = 'scope: acme-eng\nscopeType: team\ncomponentId: cmp_8f2c\ndomains:\n  - acme.com\n';

let emulator: Emulator;
let workspace: string;

beforeEach(async () => {
  vi.clearAllMocks();
  reads.files = [];
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-saved-once-'));
  await mkdir(dirname(join(workspace, 'policies/eng.autojoin.yaml')), { recursive: true });
  await writeFile(join(workspace, 'policies/eng.autojoin.yaml'), ENG);
  for (const name of ['AUTOJOIN_API_KEY', 'AUTOJOIN_ACCESS_TOKEN', 'AUTOJOIN_BASE_URL', 'VORTEX_API_KEY', 'AUTOJOIN_LOG', 'AUTOJOIN_LISTING', 'GITHUB_STEP_SUMMARY', 'GITHUB_EVENT_PATH']) {
    vi.stubEnv(name, undefined);
  }
  vi.stubEnv('GITHUB_WORKSPACE', workspace);
  vi.stubEnv('RUNNER_TEMP', join(workspace, 'tmp'));
  vi.stubEnv('GITHUB_ACTION', 'plan-step');
  vi.stubEnv('GITHUB_EVENT_NAME', 'push');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all([emulator.close(), rm(workspace, { recursive: true, force: true })]);
});

function givenInputs(inputs: Record<string, string>): void {
  const all: Record<string, string> = { 'base-url': emulator.url, 'api-key': API_KEY, path: 'policies', comment: 'false', ...inputs };
  core.getInput.mockImplementation((name) => all[name] ?? '');
}

describe('apply with plan-file', () => {
  it('reads the saved plan once, and applies it', async () => {
    givenInputs({ command: 'plan' });
    await run();
    const planned = Object.fromEntries(core.setOutput.mock.calls);
    expect(core.setFailed).not.toHaveBeenCalled();
    vi.clearAllMocks();
    reads.files = [];
    givenInputs({ command: 'apply', 'plan-file': join('tmp', 'autojoin-sync', planned['plan-file'] ?? ''), 'plan-sha256': planned['plan-sha256'] ?? '' });
    await run();
    expect(core.setFailed.mock.calls).toEqual([]);
    expect(Object.fromEntries(core.setOutput.mock.calls)['exit-code']).toBe('0');
    expect(reads.files).toEqual([join(workspace, 'tmp', 'autojoin-sync', 'plan-plan-step.json')]);
    expect(emulator.requests.some((request) => request.method === 'POST')).toBe(true);
  });
});
