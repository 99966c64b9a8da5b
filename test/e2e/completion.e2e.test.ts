/** `completion bash|zsh|fish`: the script completes subcommands, flags, and TYPE/ID keys for --scope from the policy files. */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../support/cli.js';
import { cli, policy, tempProject, type TempProject } from './support.js';

let project: TempProject | undefined;
afterEach(async () => {
  await project?.cleanup();
});

/** Sources the bash script and completes `words` (the last one is the word being typed). */
function bashComplete(dir: string, script: string, words: string[]): string[] {
  const program = `source ${JSON.stringify(script)}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _autojoin_sync; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const run = spawnSync('bash', ['--norc', '-c', program], { cwd: dir, encoding: 'utf8', env: { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: dir } });
  return run.stdout.split('\n').filter(Boolean);
}

describe('completion', () => {
  it('bash: completes subcommands, the flags of a command, and --scope from the policy files', async () => {
    project = await tempProject({
      'policies/a.autojoin.yaml': policy('eng-api', ['a.example']),
      'policies/b.autojoin.yaml': policy('eng-web', ['b.example']),
    });
    const script = await cli(['completion', 'bash'], { cwd: project.dir });
    expect(script.code, script.stderr).toBe(0);
    await writeFile(join(project.dir, 'completion.bash'), script.stdout);
    await mkdir(join(project.dir, 'bin'));
    await writeFile(join(project.dir, 'bin/autojoin-sync'), `#!/bin/sh\nexec '${process.execPath}' '${CLI_PATH}' "$@"\n`);
    await chmod(join(project.dir, 'bin/autojoin-sync'), 0o755);
    const script0 = join(project.dir, 'completion.bash');
    expect(bashComplete(project.dir, script0, ['autojoin-sync', 'sh'])).toEqual(['show']);
    expect(bashComplete(project.dir, script0, ['autojoin-sync', 'apply', '--max-rem'])).toEqual(['--max-removals', '--max-removal-percent']);
    expect(bashComplete(project.dir, script0, ['autojoin-sync', 'plan', '--scope', 'team/eng'])).toEqual(['team/eng-api', 'team/eng-web']);
    expect(bashComplete(project.dir, script0, ['autojoin-sync', 'apply', '--replace', 'team/eng-w'])).toEqual(['team/eng-web']);
  });

  it('bash: completes the global options, and a command after them (-C DIR, --project FILE, --verbose first)', async () => {
    project = await tempProject({});
    const script = await cli(['completion', 'bash'], { cwd: project.dir });
    const file = join(project.dir, 'completion.bash');
    await writeFile(file, script.stdout);
    expect(bashComplete(project.dir, file, ['autojoin-sync', '-'])).toEqual(expect.arrayContaining(['--quiet', '--verbose', '--no-color', '-C', '--project']));
    expect(bashComplete(project.dir, file, ['autojoin-sync', 'plan', '--no-c'])).toEqual(['--no-color']);
    expect(bashComplete(project.dir, file, ['autojoin-sync', '--verbose', 'pl'])).toEqual(['plan']);
    expect(bashComplete(project.dir, file, ['autojoin-sync', '--verbose', 'plan', '--detailed'])).toEqual(['--detailed-exitcode']);
    expect(bashComplete(project.dir, file, ['autojoin-sync', '-C', 'infra', 'apply', '--max-rem'])).toEqual(['--max-removals', '--max-removal-percent']);
    expect(bashComplete(project.dir, file, ['autojoin-sync', '--project', 'x.yaml', 'val'])).toEqual(['validate']);
  });

  it('zsh and fish: scripts with the subcommands and the scope lookup; an unknown shell is an error', async () => {
    for (const shell of ['zsh', 'fish']) {
      const run = await cli(['completion', shell]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('autojoin-sync completion --list-scopes');
      expect(run.stdout).toMatch(/show/);
      expect(run.stdout).toContain('max-removal-percent');
    }
    const bad = await cli(['completion', 'tcsh']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('completion needs a shell: bash, zsh, fish');
  });
});
