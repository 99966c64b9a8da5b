/** `autojoin-sync presets …` as a spawned process, against an emulator and the embedded default. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { runCli } from '../support/cli.js';

let emulator: Emulator;
let cwd: string;
beforeAll(async () => {
  emulator = await startEmulator({ accessToken: 'cli-token-31337', apiKey: 'cli-key-31337' });
  cwd = await mkdtemp(join(tmpdir(), 'autojoin-presets-'));
});
afterAll(async () => {
  await emulator.close();
  await rm(cwd, { recursive: true, force: true });
});

const remote = () => ({ AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_ACCESS_TOKEN: 'cli-token-31337' });
// Issue 12: every command that talks to a service names its project file and host on stderr first.
const using = (): string => `using no project file; service host ${new URL(emulator.url).host}\n`;

describe('autojoin-sync presets', () => {
  it('lists the email presets as 2-space JSON on stdout', async () => {
    const result = await runCli(['presets', 'email', 'list'], { cwd, env: remote() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${JSON.stringify(emulator.data().emailPresets, null, 2)}\n`);
    expect(result.stderr).toBe(using());
  });

  it('gets one form style preset', async () => {
    const result = await runCli(['presets', 'form-style', 'get', 'fsp-compact'], { cwd, env: remote() });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(emulator.data().formStylePresets['fsp-compact']);
  });

  it('fails with exit 1 and the service message for an unknown preset', async () => {
    const result = await runCli(['presets', 'form-style', 'get', 'a/../b'], { cwd, env: remote() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      using() + 'error: [GET] /api/v1/customer-invitation-form-style-presets/a%2F..%2Fb: 404 Form style preset a/../b not found\n',
    );
  });

  it('names AUTOJOIN_ACCESS_TOKEN when it is missing, and a wrong one never shows', async () => {
    const missing = await runCli(['presets', 'email', 'list'], { cwd, env: { AUTOJOIN_BASE_URL: emulator.url } });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(using() + 'error: AUTOJOIN_ACCESS_TOKEN is not set: the preset calls need an access token\n');
    const wrong = await runCli(['presets', 'email', 'list'], {
      cwd,
      env: { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_ACCESS_TOKEN: 'not-the-token-777' },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.slice(using().length)).toMatch(/^error: \[GET\] \/api\/v1\/customer-invitation-email-presets: 401 .*\(check AUTOJOIN_ACCESS_TOKEN\)\n$/u);
    expect(wrong.stderr + wrong.stdout).not.toContain('not-the-token-777');
  });

  it('refuses an http:// base URL that is not loopback', async () => {
    const result = await runCli(['presets', 'email', 'list'], {
      cwd,
      env: { AUTOJOIN_BASE_URL: 'http://invitations.example.com', AUTOJOIN_ACCESS_TOKEN: 'x-1234' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: base URL http:\/\/invitations\.example\.com\/ uses http:\/\/ to a host that is not loopback/u);
  });

  it('uses the embedded emulator without a base URL, saying so on stderr', async () => {
    const result = await runCli(['presets', 'email', 'list'], { cwd });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { id: string }[]).map((p) => p.id)).toEqual(['ep-welcome', 'ep-reminder']);
    expect(result.stderr).toMatch(/embedded emulator/u);
  });

  it('shows examples in --help', async () => {
    const result = await runCli(['presets', 'form-style', 'get', '--help'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('$ autojoin-sync presets form-style get fsp-default');
  });
});
