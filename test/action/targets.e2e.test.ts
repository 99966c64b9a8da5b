/**
 * The inputs that mirror the CLI's targeting and limits (scope, exclude-scope,
 * max-removal-percent), and the plan outputs of an apply step (plan-file, plan-sha256),
 * with the action run as the runner runs it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { pushPayload, runAction, type ActionRun } from './support/run-action.js';

const API_KEY = 'ak-targets-test-NEVER-SHOWN-77ad';
let emulator: Emulator;
let workspace: string;

const doc = (scope: string, domains: string[]): string =>
  `scope: ${scope}\nscopeType: team\ncomponentId: cmp_1\ndomains:\n${domains.map((d) => `  - ${d}`).join('\n')}\n`;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-action-targets-'));
  await write({ 'policies/a.autojoin.yaml': doc('a', ['a.example']), 'policies/b.autojoin.yaml': doc('b', ['b.example']) });
});

afterEach(async () => {
  await Promise.all([emulator.close(), rm(workspace, { recursive: true, force: true })]);
});

async function write(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
}

async function apply(inputs: Record<string, string>): Promise<ActionRun> {
  const run = await runAction({
    inputs: { command: 'apply', 'base-url': emulator.url, 'api-key': API_KEY, path: 'policies', ...inputs },
    workspace,
    eventName: 'push',
    payload: pushPayload('1'.repeat(40), '2'.repeat(40)),
    apiUrl: 'http://127.0.0.1:9',
  });
  expect(`${run.stdout}${run.stderr}${run.outputFile}`.replaceAll(`::add-mask::${API_KEY}`, '')).not.toContain(API_KEY);
  return run;
}

const live = (scope: string): string[] | undefined => emulator.data().scopes[`team/${scope}`]?.autojoin?.domains.map((d) => d.domain);

describe('action inputs that mirror the CLI', () => {
  it('scope applies only the named scope; one no file declares fails the step', async () => {
    const run = await apply({ scope: 'team/b\n' });
    expect(run.code, run.stdout).toBe(0);
    expect(live('b')).toEqual(['b.example']);
    expect(live('a')).toBeUndefined();
    const typo = await apply({ 'exclude-scope': 'team/zz' });
    expect(typo.outputs['exit-code']).toBe('1');
    expect(typo.stdout).toContain('team/zz matches no scope');
  });

  it('max-removal-percent refuses a plan that removes more (exit code 3)', async () => {
    await write({ 'policies/a.autojoin.yaml': doc('a', ['a1.example', 'a2.example', 'a3.example', 'a4.example']) });
    expect((await apply({ scope: 'team/a' })).code).toBe(0);
    await write({ 'policies/a.autojoin.yaml': doc('a', ['a1.example']) });
    const refused = await apply({ 'max-removal-percent': '50' });
    expect(refused.outputs['exit-code']).toBe('3');
    // The action names its own input, never the CLI's flag.
    expect(refused.stdout).toContain('to go ahead, run again with input max-removal-percent: 75 (or set safety.maxRemovalPercent in autojoin-sync.yaml)');
    expect(refused.stdout).not.toContain('--max-removal-percent');
    const bad = await apply({ 'max-removal-percent': 'lots' });
    expect(bad.stdout).toContain('input max-removal-percent: "lots" is not a number from 0 to 100');
  });

  it('apply sets plan-sha256 and plan-file as plan does', async () => {
    const run = await apply({});
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs['plan-sha256']).toMatch(/^[0-9a-f]{64}$/u);
    expect(run.outputs['plan-file']).toMatch(/^plan-.*\.json$/u);
    expect(run.outputs['plan-json']?.endsWith(`/${run.outputs['plan-file'] ?? ''}`)).toBe(true);
  });
});
