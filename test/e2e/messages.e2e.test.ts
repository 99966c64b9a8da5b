/** Messages as a user meets them: each names what is wrong in the user's terms, at the right time. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { CLI_PATH } from '../support/cli.js';
import { cli, policy, posts, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';
import { requires, SCRIPT } from '../support/requires.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

async function setup(files: Record<string, string>): Promise<void> {
  emulator = await startTestEmulator();
  project = await tempProject(files);
}

describe('messages', () => {
  it('a stale apply --plan refuses before it prints the plan', async () => {
    await setup({ 'a.autojoin.yaml': policy('a', ['new.example']) });
    expect((await cli(['plan', '--out', 'plan.json'], { cwd: project.dir, emulator })).code).toBe(0);
    await setLive(emulator, 'a', ['moved.example']);
    const run = await cli(['apply', '--plan', 'plan.json', '--yes'], { cwd: project.dir, emulator });
    expect(run.code).toBe(4);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toContain('new.example');
    expect(run.stderr).toContain('the saved plan is stale');
    expect(posts(emulator)).toBe(1);
  });

  it('plan --out into a missing directory names that directory, not a temp file', async () => {
    await setup({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const run = await cli(['plan', '--out', 'plans/today.json'], { cwd: project.dir, emulator });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: cannot write plans/today.json: the directory plans does not exist');
    expect(run.stderr).not.toMatch(/\.tmp/);
  });

  it('an enum error lists the allowed values', async () => {
    await setup({ 'autojoin-sync.yaml': 'listing: by-grup\n', 'a.autojoin.yaml': policy('a', ['a.example']) });
    const run = await cli(['validate'], { cwd: project.dir });
    expect(run.stdout).toContain('autojoin-sync.yaml:1:10: error: listing: must be one of "by-group", "by-scope", "autojoin", got "by-grup"');
  });

  it('a missing path says what the README says, in validate, plan and apply', async () => {
    await setup({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const readme = 'error: no policy files (autojoin.yaml, *.autojoin.yaml or .yml) under polices; nothing was done.';
    for (const args of [['validate', 'polices'], ['plan', 'polices'], ['apply', '--yes', 'polices']]) {
      const run = await cli(args, { cwd: project.dir, emulator });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(readme);
    }
  });

  it('the subdomain warning says "list acme.com too" only when acme.com is not listed', async () => {
    await setup({
      'a.autojoin.yaml': policy('a', ['acme.com', 'eng.acme.com']),
      'b.autojoin.yaml': policy('b', ['eng.globex.com']),
    });
    const run = await cli(['validate'], { cwd: project.dir });
    expect(run.stdout).toMatch(/a\.autojoin\.yaml:\d+:\d+: warning: eng\.acme\.com is a subdomain of acme\.com; only addresses at exactly eng\.acme\.com match\n/);
    expect(run.stdout).toContain('(list globex.com too if you meant it)');
  });

  it('validate is coloured on a terminal, as plan is', async (context) => {
    requires(context, SCRIPT);
    await setup({ 'a.autojoin.yaml': policy('a', ['gmail.com']) });
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm' };
    const run = spawnSync('script', ['-qec', `node '${CLI_PATH}' validate`, '/dev/null'], { cwd: project.dir, env, encoding: 'utf8' });
    expect(run.stdout).toContain('\u001b[31m');
    expect(run.stdout).toContain('webmail');
  });
});
