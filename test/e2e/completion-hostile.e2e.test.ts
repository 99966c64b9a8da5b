/**
 * Completion scripts treat every word from the policy files as data. A pull request can add a
 * policy whose scope id is `x$(touch PWNED)` (validate accepts it); whoever checks the branch out
 * and presses TAB after `--scope` must run nothing, and the completion offered must read back as
 * the key itself. Each real shell runs its script: bash, zsh and fish (Debian packages; .ci/run
 * installs them). Outside CI an absent shell skips its test with a message; in CI it fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { CLI_PATH } from '../support/cli.js';
import { requires, runs } from '../support/requires.js';
import { cli, policy, tempProject, type TempProject } from './support.js';

/** Scope ids that a shell would run if it expanded them. */
const HOSTILE = ['x$(touch PWNED1)', 'y`touch PWNED2`', "z';touch PWNED3;'", 'w${IFS}$(touch${IFS}PWNED4)'];
const KEYS = HOSTILE.map((id) => `team/${id}`);

let project: TempProject;
let env: Record<string, string>;

beforeAll(async () => {
  const files: Record<string, string> = {};
  HOSTILE.forEach((id, index) => (files[`policies/h${index}.autojoin.yaml`] = policy(JSON.stringify(id), ['a.example'])));
  project = await tempProject(files);
  await mkdir(join(project.dir, 'bin'));
  await writeFile(join(project.dir, 'bin/autojoin-sync'), `#!/bin/sh\nexec '${process.execPath}' '${CLI_PATH}' "$@"\n`);
  await chmod(join(project.dir, 'bin/autojoin-sync'), 0o755);
  env = { PATH: `${join(project.dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: project.dir, NO_COLOR: '1' };
  const validate = await cli(['validate', 'policies'], { cwd: project.dir });
  expect(validate.code, validate.stderr).toBe(0);
  const listed = await cli(['completion', '--list-scopes'], { cwd: project.dir });
  expect(listed.stdout.split('\n').filter(Boolean).sort()).toEqual([...KEYS].sort());
  for (const shell of ['bash', 'zsh', 'fish']) {
    const script = await cli(['completion', shell], { cwd: project.dir });
    expect(script.code, script.stderr).toBe(0);
    await writeFile(join(project.dir, `completion.${shell}`), script.stdout);
  }
});

afterAll(async () => {
  await project.cleanup();
});

/** A shell that is absent skips its test, saying so, outside CI; in CI it is a failure. */
function needShell(shell: string, context: TestContext): void {
  requires(context, { present: runs(shell, ['-c', 'exit 0']), reason: `${shell} is not installed (apt-get install -y ${shell})`, tool: true });
}

async function ranNothing(): Promise<void> {
  const files = await readdir(project.dir);
  expect(files.filter((name) => name.startsWith('PWNED'))).toEqual([]);
  expect(existsSync(join(project.dir, 'policies', 'PWNED1'))).toBe(false);
}

function run(shell: string, args: string[]): string {
  const result = spawnSync(shell, args, { cwd: project.dir, encoding: 'utf8', env, timeout: 60_000 });
  expect(result.status, `${shell}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

/** @returns the words `shell` reads back from each completion as it would be inserted on the command line. */
function readBack(shell: 'bash' | 'zsh', inserted: string[]): string[] {
  const program = inserted.map((word) => `printf '%s\\n' ${word}`).join('\n');
  return run(shell, ['-c', program]).split('\n').filter(Boolean);
}

describe('completion of --scope from hostile scope ids', () => {
  it('bash: runs nothing, offers each key quoted so that it reads back as the key', (context) => {
    needShell('bash', context);
    const program = `source completion.bash; COMP_WORDS=(autojoin-sync plan --scope ''); COMP_CWORD=3; _autojoin_sync; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const offered = run('bash', ['--norc', '-c', program]).split('\n').filter(Boolean);
    expect(offered).toHaveLength(KEYS.length);
    expect(readBack('bash', offered).sort()).toEqual([...KEYS].sort());
    const prefixed = `source completion.bash; COMP_WORDS=(autojoin-sync plan --scope 'team/x'); COMP_CWORD=3; _autojoin_sync; printf '%s\\n' "\${COMPREPLY[@]}"`;
    expect(readBack('bash', run('bash', ['--norc', '-c', prefixed]).split('\n').filter(Boolean))).toEqual(['team/x$(touch PWNED1)']);
    return ranNothing();
  });

  it('zsh: runs nothing, hands compadd each key as one literal word (compadd quotes it when inserted)', (context) => {
    needShell('zsh', context);
    // compadd and compdef stand in for the completion system: they record what the function hands them.
    const program = [
      'compdef() { :; }',
      'compadd() { [[ "$1" == -- ]] && shift; print -rl -- "$@" }',
      'source ./completion.zsh',
      'words=(autojoin-sync plan --scope ""); CURRENT=4',
      '_autojoin_sync',
    ].join('\n');
    const added = run('zsh', ['-f', '-c', program]).split('\n').filter(Boolean);
    expect(added.sort()).toEqual([...KEYS].sort());
    // As zsh inserts a match it quotes it (${(q)…}); that reads back as the key.
    const quoted = run('zsh', ['-f', '-c', program.replace('print -rl -- "$@"', 'print -rl -- ${(q)@}')]).split('\n').filter(Boolean);
    expect(readBack('zsh', quoted).sort()).toEqual([...KEYS].sort());
    return ranNothing();
  });

  it('fish: runs nothing, offers each key as it is (fish escapes a completion as it inserts it)', (context) => {
    needShell('fish', context);
    const program = `source completion.fish; complete -C 'autojoin-sync plan --scope '`;
    const offered = run('fish', ['--no-config', '-c', program]).split('\n').filter(Boolean);
    expect(offered.sort()).toEqual([...KEYS].sort());
    const escaped = run('fish', ['--no-config', '-c', `for key in (${program}); string escape -- $key; end`]).split('\n').filter(Boolean);
    const readBackFish = run('fish', ['--no-config', '-c', escaped.map((word) => `printf '%s\\n' ${word}`).join('\n')]).split('\n').filter(Boolean);
    expect(readBackFish.sort()).toEqual([...KEYS].sort());
    return ranNothing();
  });
});
