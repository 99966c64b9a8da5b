/**
 * validateCommand (src/commands/validate-command.ts), in-process: the one validate both front ends
 * run. Its outcome is data (the load, the findings, the missing paths, the exit code); the words
 * are the front end's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateCommand } from '../../src/commands/validate-command.js';
import { NoPoliciesError } from '../../src/policy/index.js';
import type { Diagnostic } from '../../src/policy/types.js';
import { resolveSettings, settingsIn } from '../../src/run/settings.js';
import { tempDirOfTest } from '../support/temp.js';

function repo(files: Record<string, string>): string {
  const dir = tempDirOfTest('validate-command-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const GOOD = 'scope: acme-eng\nscopeType: team\ncomponentId: cmp_1\ndomains:\n  - acme.com\n';

describe('validateCommand', () => {
  it('a valid policy file: no finding, exit 0, the policy loaded', async () => {
    const dir = repo({ 'autojoin.yaml': GOOD });
    const outcome = await validateCommand({ context: settingsIn(dir) });
    expect(outcome).toMatchObject({ findings: [], missing: [], exitCode: 0 });
    expect(outcome.load.policies.map((policy) => policy.key)).toEqual(['team/acme-eng']);
  });

  it('an invalid domain is an error finding at its line, exit 1', async () => {
    const dir = repo({ 'autojoin.yaml': GOOD.replace('acme.com', 'gmail.com') });
    const outcome = await validateCommand({ context: settingsIn(dir) });
    expect(outcome.exitCode).toBe(1);
    expect(outcome.findings).toEqual([expect.objectContaining({ file: 'autojoin.yaml', line: 5, severity: 'error' })]);
  });

  it('a secret of the run in a policy file is an error finding', async () => {
    const dir = repo({ 'autojoin.yaml': `${GOOD}# key: sk_live_0123456789abcdef\n` });
    const outcome = await validateCommand({ context: settingsIn(dir, { env: { AUTOJOIN_API_KEY: 'sk_live_0123456789abcdef' } }) });
    expect(outcome.exitCode).toBe(1);
    expect(outcome.findings.some((d) => d.severity === 'error' && d.message.includes('AUTOJOIN_API_KEY'))).toBe(true);
  });

  it('an error of the project file: no policy file is loaded, exit 1', async () => {
    const dir = repo({ 'autojoin.yaml': GOOD });
    const projectFindings: Diagnostic[] = [{ file: 'autojoin-sync.yaml', line: 1, column: 1, severity: 'error', code: 'schema', message: 'bad' }];
    const outcome = await validateCommand({ context: settingsIn(dir), projectFindings });
    expect(outcome).toMatchObject({ projectFindings, findings: [], exitCode: 1 });
    expect(outcome.load.policyCount).toBe(0);
  });

  it('a missing path: an error, or a warning with allowNoPolicies; named in missing either way', async () => {
    const dir = repo({ 'autojoin.yaml': GOOD });
    const strict = await validateCommand({ context: settingsIn(dir, { paths: ['.', 'gone'] }) });
    expect(strict).toMatchObject({ missing: ['gone'], exitCode: 1 });
    const allowed = await validateCommand({ context: settingsIn(dir, { paths: ['.', 'gone'] }), allowNoPolicies: true });
    expect(allowed).toMatchObject({ missing: ['gone'], exitCode: 0 });
    expect(allowed.findings.map((d) => d.severity)).toEqual(['warning']);
  });

  it('paths without a policy file are refused unless allowed', async () => {
    const dir = repo({ 'README.md': 'nothing here\n' });
    await expect(validateCommand({ context: settingsIn(dir) })).rejects.toThrow(NoPoliciesError);
    await expect(validateCommand({ context: settingsIn(dir), allowNoPolicies: true })).resolves.toMatchObject({ exitCode: 0 });
  });
});

describe("validate's settings: the one resolver, offline", () => {
  const sources = (cwd: string, report: (d: readonly Diagnostic[]) => void) => ({ cwd, paths: ['.'], flags: {}, env: {}, report });

  it('an invalid project file is reported and stops a run, but comes back as findings offline', async () => {
    const dir = repo({ 'autojoin.yaml': GOOD, 'autojoin-sync.yaml': 'owner: [1, 2]\n' });
    await expect(resolveSettings(sources(dir, () => undefined))).rejects.toThrow('autojoin-sync.yaml is invalid');
    const found: Diagnostic[] = [];
    const settings = await resolveSettings({ ...sources(dir, (d) => found.push(...d)), offline: true });
    expect(found.some((d) => d.severity === 'error')).toBe(true);
    const outcome = await validateCommand({ context: settings, projectFindings: found });
    expect(outcome).toMatchObject({ findings: [], exitCode: 1 });
  });

  it('offline records nothing of the run: no HEAD, no project record', async () => {
    const dir = repo({ 'autojoin.yaml': GOOD, 'autojoin-sync.yaml': 'owner: team-a\n' });
    const settings = await resolveSettings({ ...sources(dir, () => undefined), offline: true });
    expect(settings.head).toBeUndefined();
    expect(settings.projectRecord).toBeNull();
    expect(settings.owner).toBe('team-a');
  });
});

describe("the run's secrets are part of its context", () => {
  it('from the environment, with a key given in the flags\' place (input api-key) counting as AUTOJOIN_API_KEY', () => {
    const env = { AUTOJOIN_API_KEY: 'sk-env', VORTEX_API_KEY: 'vx-env', AUTOJOIN_ACCESS_TOKEN: ' ' };
    expect(settingsIn('/repo', { env }).secrets).toEqual([
      { name: 'AUTOJOIN_API_KEY', value: 'sk-env' },
      { name: 'VORTEX_API_KEY', value: 'vx-env' },
    ]);
    expect(settingsIn('/repo', { env, flags: { apiKey: 'sk-input' } }).secrets).toContainEqual({ name: 'AUTOJOIN_API_KEY', value: 'sk-input' });
    expect(settingsIn('/repo').secrets).toEqual([]);
  });
});
