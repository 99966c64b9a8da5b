/**
 * The action's `run()` in-process, with `@actions/core` replaced by spies (as
 * actions/typescript-action tests its `run()`), beside the spawned tests that run `dist/action.js`
 * as the runner does. The action's own wrapper (src/action/runner.ts) still sits between `run()`
 * and the spies, so what they receive is what the runner would: redacted, in order.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';

const core = await vi.hoisted(async () => (await import('../support/actions-core.js')).fakeActionsCore());
vi.mock('@actions/core', () => core);

const { run } = await import('../../src/action/main.js');
const { OUTPUT_NAMES } = await import('../../src/action/outputs.js');

const API_KEY = 'ak-main-test-NEVER-SHOWN-7e3a41';
const ENG = 'scope: acme-eng\nscopeType: team\ncomponentId: cmp_8f2c\ndomains:\n  - acme.com\n  - acme.co.uk\n';
// gmail.com sits at line 5, column 5.
const WEBMAIL = 'scope: acme-bad\nscopeType: team\ncomponentId: cmp_8f2c\ndomains:\n  - gmail.com\n';

/** Every output of action.yml, empty: each run sets them all. */
const EMPTY_OUTPUTS = Object.fromEntries(OUTPUT_NAMES.map((name) => [name, '']));

let emulator: Emulator;
let workspace: string;

beforeEach(async () => {
  vi.clearAllMocks();
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-main-ws-'));
  await writeFiles({ 'policies/eng.autojoin.yaml': ENG });
  // run() reads the workflow context from the environment; nothing of the test's own may leak in.
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

async function writeFiles(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
}

/** Gives run() these inputs through the mocked getInput ('' for any other, as @actions/core does). */
function givenInputs(inputs: Record<string, string>): void {
  const all: Record<string, string> = { 'base-url': emulator.url, 'api-key': API_KEY, path: 'policies', comment: 'false', ...inputs };
  core.getInput.mockImplementation((name) => all[name] ?? '');
}

function outputs(): Record<string, string> {
  return Object.fromEntries(core.setOutput.mock.calls);
}

/** Everything run() sent to the runner, but the secrets it registered. */
function everythingShown(): string {
  const channels = [core.setOutput, core.setFailed, core.info, core.notice, core.warning, core.error, core.summary.addRaw];
  return JSON.stringify(channels.map((channel) => channel.mock.calls));
}

describe('run() with @actions/core replaced', () => {
  it('validate: an invalid file is annotated at file, line and column and fails the step with exit-code 1', async () => {
    await writeFiles({ 'policies/bad.autojoin.yaml': WEBMAIL });
    givenInputs({ command: 'validate', 'base-url': '', 'api-key': '' });
    await run();
    expect(core.error).toHaveBeenCalledTimes(1);
    expect(core.error).toHaveBeenCalledWith(expect.stringMatching(/^gmail\.com is a webmail domain/), {
      file: 'policies/bad.autojoin.yaml',
      startLine: 5,
      startColumn: 5,
      title: 'autojoin-sync: webmail-domain',
    });
    // The step's failure is the summary line; the file:line:col is the annotation's, above.
    expect(core.setFailed.mock.calls).toEqual([['1 policy; 1 error, 0 warnings in 2 files']]);
    expect(outputs()).toEqual({
      ...EMPTY_OUTPUTS,
      'exit-code': '1',
      'has-changes': 'false',
      summary: '1 policy; 1 error, 0 warnings in 2 files',
      'sarif-file': join(workspace, 'tmp', 'autojoin-sync', 'validate-plan-step.sarif'),
    });
    expect(emulator.requests).toHaveLength(0);
  });

  it('plan: sets has-changes, plan-json, plan-sha256 and exit-code; the plan file is there and pinned', async () => {
    givenInputs({ command: 'plan' });
    await run();
    expect(core.setFailed).not.toHaveBeenCalled();
    const set = outputs();
    const planFile = join(workspace, 'tmp', 'autojoin-sync', 'plan-plan-step.json');
    expect(set).toEqual({
      ...EMPTY_OUTPUTS,
      'drift-count': '0',
      'exit-code': '2',
      'has-changes': 'true',
      'plan-file': 'plan-plan-step.json',
      'plan-json': planFile,
      'plan-sha256': expect.stringMatching(/^[0-9a-f]{64}$/u),
      summary: '1 to create, 0 to update, 0 to clear, 0 unchanged.',
    });
    const text = await readFile(planFile, 'utf8');
    expect(createHash('sha256').update(text).digest('hex')).toBe(set['plan-sha256']);
    const plan = JSON.parse(text) as { target: string; changes: { key: string; after: string[] }[] };
    expect(plan.target).toBe(emulator.url);
    expect(plan.changes.map((change) => [change.key, change.after])).toEqual([['team/acme-eng', ['acme.co.uk', 'acme.com']]]);
    expect(emulator.requests.some((request) => request.method !== 'GET')).toBe(false);
  });

  it('apply: changes the service and reports exit-code 0', async () => {
    givenInputs({ command: 'apply' });
    await run();
    expect(core.setFailed).not.toHaveBeenCalled();
    expect(outputs()).toMatchObject({ 'exit-code': '0', 'has-changes': 'true' });
    expect(outputs().summary).toMatch(/^1 to create, 0 to update, 0 to clear, 0 unchanged\. Applied 1, failed 0, skipped 0\./);
    expect(emulator.data().scopes['team/acme-eng']?.autojoin?.domains.map((d) => d.domain).sort()).toEqual(['acme.co.uk', 'acme.com']);
  });

  it('an invalid input value fails the step naming the input, before any request', async () => {
    givenInputs({ command: 'plan', concurrency: 'many' });
    await run();
    expect(core.setFailed.mock.calls).toEqual([['input concurrency: "many" is not a whole number from 1 to 256']]);
    expect(outputs()).toEqual({ ...EMPTY_OUTPUTS, 'exit-code': '1', 'has-changes': 'false', summary: 'input concurrency: "many" is not a whole number from 1 to 256' });
    expect(emulator.requests).toHaveLength(0);
  });

  it('an unsafe plan names the input max-removals, never the CLI flag, in the warning and the failure', async () => {
    givenInputs({ command: 'apply' });
    await run();
    await writeFiles({ 'policies/eng.autojoin.yaml': ENG.replace('  - acme.co.uk\n', '') });
    vi.clearAllMocks();
    givenInputs({ command: 'plan', 'max-removals': '0' });
    await run();
    expect(core.warning).toHaveBeenCalledWith(
      'apply would refuse this plan: plan removes 1 domains, more than the limit of 0 (input max-removals or safety.maxRemovals), from team/acme-eng; ' +
        'to go ahead, run again with input max-removals: 1',
      { title: 'autojoin-sync: unsafe plan' },
    );
    vi.clearAllMocks();
    givenInputs({ command: 'apply', 'max-removals': '0' });
    await run();
    expect(core.setFailed.mock.calls).toEqual([[expect.stringMatching(/; to go ahead, run again with input max-removals: 1$/)]]);
    expect(outputs()['exit-code']).toBe('3');
    expect(everythingShown()).not.toContain('--max-removals');
  });

  it('paths without policy files name the input allow-no-policies, never the CLI flag', async () => {
    await mkdir(join(workspace, 'empty'), { recursive: true });
    givenInputs({ command: 'validate', path: 'empty', 'base-url': '', 'api-key': '' });
    await run();
    expect(core.setFailed.mock.calls).toEqual([
      ['no policy files (autojoin.yaml, *.autojoin.yaml or .yml) under empty; nothing was done. Check the path, or pass input allow-no-policies: true when that is intended (e.g. to prune every scope)'],
    ]);
    expect(everythingShown()).not.toContain('--allow-no-policies');
  });

  it('registers the api-key with setSecret before anything is logged, and never shows it', async () => {
    givenInputs({ command: 'apply' });
    vi.stubEnv('AUTOJOIN_LOG', 'debug'); // one log line a request: the most there is to show
    await run();
    expect(core.setSecret).toHaveBeenCalledWith(API_KEY);
    const masked = core.setSecret.mock.invocationCallOrder[0] ?? Infinity;
    const firstShown = Math.min(...[core.info, core.notice, core.warning, core.error, core.setOutput, core.setFailed].flatMap((channel) => channel.mock.invocationCallOrder));
    expect(core.info).toHaveBeenCalled();
    expect(masked).toBeLessThan(firstShown);
    expect(everythingShown()).not.toContain(API_KEY);
  });
});
