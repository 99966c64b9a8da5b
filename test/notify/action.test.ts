/**
 * Notifications from the action's `run()` in-process (`@actions/core` replaced by spies, as
 * test/action/main.test.ts does), against the emulator and real receivers on 127.0.0.1: the
 * apply and drift flows, the input `notify`, the output `notify-failed`, a required target, and
 * the same message as the CLI's for the same outcome.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import webhookSchema from '../../schemas/notify-webhook.schema.json' with { type: 'json' };
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { runInProcess } from '../support/in-process.js';
import { commitAll } from '../support/git.js';
import { SECRET, startReceiver, type Receiver } from './support.js';

const core = await vi.hoisted(async () => (await import('../support/actions-core.js')).fakeActionsCore());
vi.mock('@actions/core', () => core);

const { run } = await import('../../src/action/main.js');

const API_KEY = 'ak-notify-action-NEVER-SHOWN-3c9d';
const validateWebhook = new Ajv2020({ strict: true }).compile(webhookSchema);
const policy = (scope: string, domains: string[]): string => `scope: ${scope}\nscopeType: team\ncomponentId: c1\ndomains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;
const PROJECT = `owner: platform
notify:
  - to: webhook
    urlEnv: AUTOJOIN_NOTIFY_HOOK_URL
    secretEnv: AUTOJOIN_NOTIFY_HOOK_SECRET
  - to: slack
    urlEnv: AUTOJOIN_NOTIFY_SLACK_URL
    required: true
`;

let emulator: Emulator;
let workspace: string;
let hook: Receiver;
let slack: Receiver;

beforeEach(async () => {
  vi.clearAllMocks();
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-notify-ws-'));
  hook = await startReceiver();
  slack = await startReceiver();
  await writeFiles({ 'autojoin-sync.yaml': PROJECT, 'policies/eng.autojoin.yaml': policy('eng', ['acme.com']) });
  // A repository: the project file at its root governs the paths under it.
  commitAll(workspace);
  for (const name of ['AUTOJOIN_API_KEY', 'AUTOJOIN_ACCESS_TOKEN', 'AUTOJOIN_BASE_URL', 'VORTEX_API_KEY', 'AUTOJOIN_LOG', 'GITHUB_STEP_SUMMARY', 'GITHUB_EVENT_PATH']) vi.stubEnv(name, undefined);
  vi.stubEnv('GITHUB_WORKSPACE', workspace);
  vi.stubEnv('RUNNER_TEMP', join(workspace, 'tmp'));
  vi.stubEnv('GITHUB_ACTION', 'step');
  vi.stubEnv('GITHUB_EVENT_NAME', 'push');
  vi.stubEnv('GITHUB_REPOSITORY', 'acme/policies');
  vi.stubEnv('AUTOJOIN_NOTIFY_HOOK_URL', hook.url);
  vi.stubEnv('AUTOJOIN_NOTIFY_HOOK_SECRET', SECRET);
  vi.stubEnv('AUTOJOIN_NOTIFY_SLACK_URL', slack.url);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all([emulator.close(), hook.close(), slack.close(), rm(workspace, { recursive: true, force: true })]);
});

async function writeFiles(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
}

function givenInputs(inputs: Record<string, string>): void {
  const all: Record<string, string> = { 'base-url': emulator.url, 'api-key': API_KEY, path: 'policies', comment: 'false', ...inputs };
  core.getInput.mockImplementation((name) => all[name] ?? '');
}

function outputs(): Record<string, string> {
  return Object.fromEntries(core.setOutput.mock.calls);
}

function everythingShown(): string {
  const channels = [core.setOutput, core.setFailed, core.info, core.notice, core.warning, core.error, core.summary.addRaw];
  return JSON.stringify(channels.map((channel) => channel.mock.calls));
}

function body(receiver: Receiver, index = 0): Record<string, unknown> {
  const parsed = JSON.parse(receiver.received[index]?.body ?? 'null') as Record<string, unknown>;
  expect(validateWebhook(parsed), JSON.stringify(validateWebhook.errors)).toBe(true);
  return parsed;
}

describe('the action notifies', () => {
  it('apply: applied to each target, notify-failed false; no secret in any channel', async () => {
    givenInputs({ command: 'apply' });
    await run();
    expect(core.setFailed).not.toHaveBeenCalled();
    expect(body(hook)).toMatchObject({ event: 'applied', repository: 'acme/policies', counts: { applied: 1 } });
    expect(slack.received).toHaveLength(1);
    expect(outputs()['notify-failed']).toBe('false');
    const shown = everythingShown();
    for (const secret of [SECRET, hook.url, slack.url, 'T0SECRET/B0SECRET/tokenXYZ123456', API_KEY]) expect(shown).not.toContain(secret);
  });

  it('apply with notify: false sends nothing; plan sends nothing unless notify: true (the drift job)', async () => {
    givenInputs({ command: 'apply', notify: 'false' });
    await run();
    givenInputs({ command: 'plan' });
    await writeFiles({ 'policies/eng.autojoin.yaml': policy('eng', ['acme.com', 'acme.io']) });
    await run();
    expect(hook.received).toHaveLength(0);
    expect(outputs()['notify-failed']).toBe('');
    givenInputs({ command: 'plan', notify: 'true' });
    await run();
    expect(body(hook)).toMatchObject({ event: 'drift', command: 'plan', counts: { pending: 1, outside: 0 } });
  });

  it('a required target that fails: the step fails with exit-code 1 and notify-failed true', async () => {
    await slack.close();
    slack = await startReceiver([500]);
    vi.stubEnv('AUTOJOIN_NOTIFY_SLACK_URL', slack.url);
    givenInputs({ command: 'apply' });
    await run();
    expect(emulator.data().scopes['team/eng']).toBeDefined();
    expect(outputs()).toMatchObject({ 'exit-code': '1', 'notify-failed': 'true' });
    expect(core.setFailed).toHaveBeenCalledWith(expect.stringContaining('a required notification was not delivered: slack (AUTOJOIN_NOTIFY_SLACK_URL)'));
    expect(core.warning).toHaveBeenCalledWith(expect.stringContaining('notification to slack (AUTOJOIN_NOTIFY_SLACK_URL) failed: HTTP 500 after 3 attempts'), expect.anything());
  });

  it('refused: the same message as the CLI sends for the same outcome, but for the words of the override', async () => {
    givenInputs({ command: 'apply', notify: 'false' });
    await run();
    await writeFiles({ 'policies/eng.autojoin.yaml': policy('eng', ['acme.org']) });
    givenInputs({ command: 'apply', 'max-removals': '0' });
    await run();
    expect(outputs()).toMatchObject({ 'exit-code': '3', 'notify-failed': 'false' });
    const fromAction = body(hook);
    const cli = await runInProcess(['apply', '--yes', '--max-removals', '0', 'policies'], {
      cwd: workspace,
      env: { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: API_KEY },
    });
    expect(cli.code).toBe(3);
    const fromCli = body(hook, 1);
    expect((fromAction.refusal as { override: string }).override).toBe('input max-removals: 1');
    expect((fromCli.refusal as { override: string }).override).toBe('--max-removals 1');
    const without = (one: Record<string, unknown>): unknown => ({ ...one, refusal: { ...(one.refusal as object), override: '', reason: '' } });
    expect(without(fromAction)).toEqual(without(fromCli));
  });
});

describe('one seam: the command layer sends, whichever front end asked', () => {
  /** The CLI's run in the same workspace, against `service` (the emulator's URL). */
  const cliRun = (args: string[], service = emulator.url): ReturnType<typeof runInProcess> => runInProcess(args, { cwd: workspace, env: { AUTOJOIN_BASE_URL: service, AUTOJOIN_API_KEY: API_KEY } });

  it('the same request sends the same messages: the drift job (plan --notify) and an apply', async () => {
    givenInputs({ command: 'apply', notify: 'false' });
    await run();
    await writeFiles({ 'policies/eng.autojoin.yaml': policy('eng', ['acme.com', 'acme.io']) });
    commitAll(workspace, 'acme.io');
    givenInputs({ command: 'plan', notify: 'true' });
    await run();
    expect((await cliRun(['plan', '--notify', '--detailed-exitcode', 'policies'])).code).toBe(2);
    expect(hook.received).toHaveLength(2);
    expect(body(hook, 1)).toEqual(body(hook, 0));
    expect(body(hook, 0)).toMatchObject({ event: 'drift', exitCode: 2 });
    expect(slack.received[1]?.body).toBe(slack.received[0]?.body);
    // The same apply from the same live state: a second emulator holds the state the first had before the action wrote.
    const twin = await startEmulator({ port: 0, data: structuredClone(emulator.data()), apiKey: API_KEY });
    try {
      givenInputs({ command: 'apply' });
      await run();
      const applied = await cliRun(['apply', '--yes', 'policies'], twin.url);
      expect(applied.code, applied.stderr).toBe(0);
      expect(hook.received).toHaveLength(4);
      const [fromAction, fromCli] = [body(hook, 2), body(hook, 3)];
      expect(fromAction).toMatchObject({ event: 'applied', service: new URL(emulator.url).host });
      expect(fromCli).toMatchObject({ event: 'applied', service: new URL(twin.url).host });
      expect({ ...fromCli, service: '' }).toEqual({ ...fromAction, service: '' });
    } finally {
      await twin.close();
    }
  });

  it('a saved plan whose pin does not match sends nothing, from either front end', async () => {
    await writeFiles({ 'policies/eng.autojoin.yaml': policy('eng', ['acme.com', 'acme.io']) });
    commitAll(workspace, 'acme.io');
    const planned = await cliRun(['plan', '--out', 'plan.json', 'policies']);
    expect(planned.code, planned.stderr).toBe(0);
    const wrong = '0'.repeat(64);
    const cli = await cliRun(['apply', '--plan', 'plan.json', '--plan-sha256', wrong, '--yes']);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('sha256');
    givenInputs({ command: 'apply', 'plan-file': 'plan.json', 'plan-sha256': wrong });
    await run();
    expect(outputs()['exit-code']).toBe('1');
    expect(emulator.data().scopes['team/eng']).toBeUndefined();
    expect([hook.received, slack.received]).toEqual([[], []]);
  });
});
