/** --quiet, --verbose, AUTOJOIN_LOG and the colour rules, on the spawned CLI against the emulator. */
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, policy, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from '../e2e/support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

const ANSI = /\x1b\[/; // eslint-disable-line no-control-regex

describe('--verbose', () => {
  it('prints one line per HTTP request with method, path, status, ms and retry number; never a header', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'acme', ['acme.com']);
    project = await tempProject({ 'a.autojoin.yaml': policy('acme', ['acme.com', 'acme.de']) });
    const applied = await cli(['apply', '--yes', '--verbose', '--listing', 'by-scope'], { cwd: project.dir, emulator });
    expect(applied.code, applied.stderr).toBe(0);
    const lines = applied.stderr.split('\n').filter((line) => line.startsWith('http: '));
    // Real listings carry no domains: an active autojoin invitation needs call 2b as well.
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^http: GET \/api\/v1\/invitations\/by-scope\/team\/acme\?start=0 200 \d+ ms$/);
    expect(lines[1]).toMatch(/^http: GET \/api\/v1\/invitations\/by-scope\/team\/acme\/autojoin 200 \d+ ms$/);
    expect(lines[2]).toMatch(/^http: POST \/api\/v1\/invitations\/autojoin 200 \d+ ms$/);
    expect(applied.stderr).not.toMatch(/x-api-key|user-agent|content-type|127\.0\.0\.1:\d+\/api/i);
    expect(applied.stdout).not.toContain('http: ');
  });

  it('numbers the retries of a failing request; AUTOJOIN_LOG=debug does the same', async () => {
    emulator = await startTestEmulator({ faultRate: 1, faults: ['503'] });
    project = await tempProject({ 'a.autojoin.yaml': policy('acme', ['acme.com']) });
    const run = await cli(['plan'], { cwd: project.dir, emulator, env: { AUTOJOIN_LOG: 'debug' } });
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('http: '));
    expect(lines.map((line) => line.replace(/ \d+ ms/, ' N ms'))).toEqual([
      'http: GET /api/v1/invitations/by-scope/team/acme/autojoin 503 N ms',
      ...[1, 2, 3, 4].map((retry) => `http: GET /api/v1/invitations/by-scope/team/acme/autojoin 503 N ms retry ${retry}`),
    ]);
    expect(run.stderr.trim().split('\n').at(-1)).toMatch(/^error: .*503.*gave up after 5 attempts/);
  }, 30_000);

  it('cannot be combined with --quiet', async () => {
    project = await tempProject();
    const run = await cli(['validate', '--quiet', '--verbose'], { cwd: project.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("'-q, --quiet' cannot be used with option '-v, --verbose'");
  });
});

describe('--quiet', () => {
  it('prints results and warnings only: no notices, summaries or progress', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('acme', ['acme.com', 'eng.acme.com']) });
    const normal = await cli(['plan'], { cwd: project.dir, emulator });
    expect(normal.stderr).toContain('using no project file; service host');
    const quiet = await cli(['plan', '--quiet'], { cwd: project.dir, emulator });
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe(normal.stdout);
    expect(quiet.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^a\.autojoin\.yaml:6:5: warning: eng\.acme\.com is a subdomain/)]);
    const validated = await cli(['validate', '-q'], { cwd: project.dir });
    expect(validated.stderr).not.toMatch(/valid polic/);
    expect(validated.stdout).toContain('warning: eng.acme.com');
  });

  it('still shows errors', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('acme', ['gmail.com']) });
    const run = await cli(['validate', '--quiet'], { cwd: project.dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('error: gmail.com is a webmail domain');
  });
});

describe('colour', () => {
  it('off a terminal by default; FORCE_COLOR forces it; --no-color and NO_COLOR turn it off', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('acme', ['acme.com']) });
    const plain = { NO_COLOR: undefined };
    expect((await cli(['plan'], { cwd: project.dir, emulator, env: plain })).stdout).not.toMatch(ANSI);
    expect((await cli(['plan'], { cwd: project.dir, emulator, env: { ...plain, FORCE_COLOR: '1' } })).stdout).toMatch(ANSI);
    expect((await cli(['plan', '--no-color'], { cwd: project.dir, emulator, env: { ...plain, FORCE_COLOR: '1' } })).stdout).not.toMatch(ANSI);
    expect((await cli(['plan'], { cwd: project.dir, emulator, env: { NO_COLOR: '1' } })).stdout).not.toMatch(ANSI);
  });
});
